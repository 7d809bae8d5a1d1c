import { z } from "zod";
import { report } from "./problems.ts";
import { parseQuantity, positiveQuantity } from "./quantity.ts";

const RESOURCE_NAMES = ["cpu", "memory"] as const;

const resourceListSchema = (what: string) =>
  z.strictObject({
    cpu: positiveQuantity(`${what}.cpu`).optional(),
    memory: positiveQuantity(`${what}.memory`).optional(),
  });

export const resourcesSchema = z
  .strictObject({
    requests: resourceListSchema("resources.requests").optional(),
    limits: resourceListSchema("resources.limits").optional(),
  })
  .superRefine((resources, ctx) => {
    for (const name of RESOURCE_NAMES) {
      const request = resources.requests?.[name];
      const limit = resources.limits?.[name];
      if (request === undefined || limit === undefined) continue;
      const requested = parseQuantity(request);
      const limited = parseQuantity(limit);
      // An unparseable quantity already has its own issue; comparing it would only add noise.
      if (requested === null || limited === null) continue;
      if (limited < requested) {
        report(
          ctx,
          "resources.limit-below-request",
          ["limits", name],
          `resources.limits.${name} (${limit}) is below resources.requests.${name} (${request}); raise the limit or lower the request`,
        );
      }
    }
  });
export type Resources = z.infer<typeof resourcesSchema>;
