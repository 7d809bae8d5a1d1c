import { z } from "zod";

export const PROFILES = ["generic", "claude", "opencode", "custom"] as const;
export const profileSchema = z.enum(PROFILES, {
  error: `profile must be one of: ${PROFILES.join(", ")}`,
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * OpenShell's community base image: Ubuntu with claude, opencode, codex and friends installed,
 * the `sandbox` user's home at /sandbox (NVIDIA/OpenShell-Community sandboxes/base). It is
 * what OpenShell itself starts when asked for a Claude or OpenCode sandbox, so the agent
 * profiles share it rather than naming images nobody publishes.
 */
export const COMMUNITY_BASE_IMAGE = "ghcr.io/nvidia/openshell-community/sandboxes/base:latest";

/**
 * The container must outlive any single agent session: people (and Berth's exec) attach to a
 * running sandbox and start the agent there, and an interactive agent CLI as PID 1 would exit
 * at once without a terminal. So every preset keeps the pod alive and names the agent's own
 * command separately.
 */
const KEEP_ALIVE = ["sleep", "infinity"];

export const profileDefinitionSchema = z.object({
  label: z.string(),
  /** Unset only for `custom`, where the user must name the image. */
  image: z.string().optional(),
  /** Unset means the image's own entrypoint. */
  command: z.array(z.string()).optional(),
  /** What to run inside the sandbox to start the agent, for terminals and hints in the console. */
  agentCommand: z.array(z.string()).optional(),
  /**
   * Where the agent keeps state that must survive a pod replacement, relative to the workspace
   * (the base image's home directory is the workspace, /sandbox). Checkpoints flush these and
   * recovery checks that they came back. A trailing '/' marks a directory.
   */
  statePaths: z.array(z.string()),
});
export type ProfileDefinition = z.infer<typeof profileDefinitionSchema>;

export const PROFILE_CATALOGUE: Readonly<Record<Profile, ProfileDefinition>> = {
  generic: {
    label: "Generic",
    image: COMMUNITY_BASE_IMAGE,
    command: KEEP_ALIVE,
    statePaths: [],
  },
  claude: {
    label: "Claude Code",
    image: COMMUNITY_BASE_IMAGE,
    command: KEEP_ALIVE,
    agentCommand: ["claude"],
    // Claude Code keeps settings, sessions and credentials in ~/.claude/ and ~/.claude.json.
    statePaths: [".claude/", ".claude.json"],
  },
  opencode: {
    label: "OpenCode",
    image: COMMUNITY_BASE_IMAGE,
    command: KEEP_ALIVE,
    agentCommand: ["opencode"],
    // OpenCode follows XDG: config in ~/.config/opencode, sessions in ~/.local/share/opencode,
    // per-project agents and commands in .opencode/.
    statePaths: [".opencode/", ".config/opencode/", ".local/share/opencode/"],
  },
  custom: {
    label: "Custom image",
    statePaths: [],
  },
};

/** The image and command a sandbox runs: what the user wrote, else its profile's preset. */
export function containerFor(spec: { profile: Profile; image?: string | undefined; command?: string[] | undefined }) {
  const preset = PROFILE_CATALOGUE[spec.profile];
  return { image: spec.image ?? preset.image, command: spec.command ?? preset.command };
}
