import { describe, expect, it } from "vitest";
import { initialTemplateValues, templateFieldOf, templateFromForm } from "./template-form-values.ts";

// The template form's values as the template the API takes, and the API's problems put back on the form's fields.

const filled = (template: Partial<ReturnType<typeof initialTemplateValues>["template"]>) => {
  const values = initialTemplateValues("pvc");
  return { ...values, name: "python", template: { ...values.template, ...template } };
};

describe("the template form", () => {
  it("sends no warm pool when its size is empty", () => {
    expect(templateFromForm(filled({}), "pvc")).not.toHaveProperty("warmPool");
  });

  it("sends the pool's size and strategy", () => {
    expect(templateFromForm(filled({ warmPoolReplicas: " 3 ", updateStrategy: "Recreate" }), "pvc")?.warmPool).toEqual({ replicas: 3, updateStrategy: "Recreate" });
  });

  it("has no template to send while the pool's size is not a whole number", () => {
    expect(templateFromForm(filled({ warmPoolReplicas: "2.5" }), "pvc")).toBeNull();
  });

  it.each([
    [["warmPool", "replicas"], "template.warmPoolReplicas"],
    [["description"], "template.description"],
    [["sandbox", "workspace", "claim", "ownership"], "workspace.claim.ownership"],
    [["name"], "name"],
  ])("puts a problem at %j on %s", (path, field) => {
    expect(templateFieldOf(path)).toBe(field);
  });
});
