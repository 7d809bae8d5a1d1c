import { PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";

/** client-node sends JSON patches unless told otherwise; Berth's patches are merge patches. */
export const mergePatch = setHeaderOptions("Content-Type", PatchStrategy.MergePatch);
