import { z } from "zod";
import generated from "./generated/custom-resource-definitions.json" with { type: "json" };
import { parsePrinterPath } from "./tables/printer-jsonpath.ts";

// The CustomResourceDefinitions the embedded cluster serves, as their projects publish them
// (scripts/generate-custom-resources.ts): what each one says about its resource — names, scope,
// versions, subresources, printer columns — read here, so the served resources are the CRDs'.

const printerColumnSchema = z.object({
  name: z.string(),
  type: z.enum(["string", "integer", "number", "boolean", "date"]),
  jsonPath: z.string(),
  description: z.string().optional(),
  priority: z.number().int().optional(),
  format: z.string().optional(),
});
export type PrinterColumn = z.infer<typeof printerColumnSchema>;

const customResourceDefinitionSchema = z.looseObject({
  apiVersion: z.literal("apiextensions.k8s.io/v1"),
  kind: z.literal("CustomResourceDefinition"),
  metadata: z.looseObject({ name: z.string() }),
  spec: z.looseObject({
    group: z.string(),
    scope: z.enum(["Namespaced", "Cluster"]),
    names: z.looseObject({
      plural: z.string(),
      singular: z.string(),
      kind: z.string(),
      listKind: z.string(),
      shortNames: z.array(z.string()).optional(),
      categories: z.array(z.string()).optional(),
    }),
    versions: z.array(
      z.looseObject({
        name: z.string(),
        served: z.boolean(),
        storage: z.boolean(),
        additionalPrinterColumns: z.array(printerColumnSchema).optional(),
        subresources: z.looseObject({ status: z.object({}).optional(), scale: z.unknown().optional() }).optional(),
      }),
    ),
  }),
});
export type CustomResourceDefinition = z.infer<typeof customResourceDefinitionSchema>;

const DEFINITIONS: CustomResourceDefinition[] = generated.definitions.map(({ source, definition }) => {
  const parsed = customResourceDefinitionSchema.safeParse(definition);
  if (!parsed.success) throw new Error(`${source} is not a CustomResourceDefinition this cluster can serve: ${parsed.error.issues[0]?.message}`);
  // A printer column whose path this server cannot follow is found now, not on the first `kubectl get`.
  for (const version of parsed.data.spec.versions) for (const column of version.additionalPrinterColumns ?? []) parsePrinterPath(column.jsonPath);
  return parsed.data;
});

/** The published definition of `plural.group`; throws when none was generated. */
export function publishedDefinition(group: string, plural: string): CustomResourceDefinition {
  const found = DEFINITIONS.find((definition) => definition.spec.group === group && definition.spec.names.plural === plural);
  if (!found) throw new Error(`no CustomResourceDefinition for ${plural}.${group} was generated: add it to scripts/generate-custom-resources.ts`);
  return found;
}

/**
 * The columns `kubectl get` shows for a version: the definition's additionalPrinterColumns, or
 * — as the API server does for a version that names none — the object's age.
 */
export function printerColumnsOf(definition: { spec: { versions: { name: string; additionalPrinterColumns?: PrinterColumn[] }[] } }, version: string): PrinterColumn[] {
  const columns = definition.spec.versions.find((one) => one.name === version)?.additionalPrinterColumns ?? [];
  return columns.length > 0 ? columns : [{ name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" }];
}
