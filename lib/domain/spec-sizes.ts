import { z } from "zod";
import { report } from "./problems.ts";

// How much text a spec may carry into its Sandbox. The API server refuses a request over 3 MiB
// and etcd an object over 1.5 MiB; a spec that came near either would fail at the cluster, or
// worse, at the next status update of the controller. These keep every Sandbox far below.

export const MAX_ARGUMENTS = 256;
export const MAX_ARGUMENT_LENGTH = 32 * 1024;
export const MAX_ENV_VARIABLES = 256;
export const MAX_ENV_VALUE_LENGTH = 32 * 1024;
/** All of a spec's command, checkpoint hook and environment together. */
export const MAX_SPEC_TEXT = 256 * 1024;

const kib = (characters: number) => `${characters / 1024} KiB`;

/** A command line: at most MAX_ARGUMENTS arguments of at most MAX_ARGUMENT_LENGTH each. */
export const argumentsSchema = (what: string) =>
  z
    .array(z.string().max(MAX_ARGUMENT_LENGTH, `each argument of ${what} must be at most ${kib(MAX_ARGUMENT_LENGTH)}; put long scripts in the image or the workspace`))
    .max(MAX_ARGUMENTS, `${what} may have at most ${MAX_ARGUMENTS} arguments`);

export const envValueSchema = z.string().max(MAX_ENV_VALUE_LENGTH, `an env value must be at most ${kib(MAX_ENV_VALUE_LENGTH)}; mount larger data as a volume`);

interface SizedSpec {
  command?: string[];
  env: { name: string; value?: string | undefined }[];
  disruptionPolicy: { checkpointHook?: string[] };
}

/** Refuses a spec whose text, all together, is over MAX_SPEC_TEXT (each part may be within its own limit). */
export function refineSpecText(spec: SizedSpec, ctx: z.RefinementCtx): void {
  const length = (texts: string[] = []) => texts.reduce((sum, text) => sum + text.length, 0);
  const total = length(spec.command) + length(spec.disruptionPolicy.checkpointHook) + length(spec.env.flatMap((variable) => [variable.name, variable.value ?? ""]));
  if (total > MAX_SPEC_TEXT) {
    report(ctx, "limit.too-long", [], `the command, checkpoint hook and environment hold ${Math.ceil(total / 1024)} KiB together, more than ${kib(MAX_SPEC_TEXT)}; put large data in the image, the workspace or a Secret`);
  }
}
