import { z } from "zod";

// Kubernetes' own naming rules (k8s.io/apimachinery/pkg/util/validation), so that Berth
// refuses a name before the API server does, with a message a person can act on.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;

/** A DNS-1123 label: names of sandboxes, namespaces, volumes, containers. */
export const dns1123Label = (what: string) =>
  z
    .string()
    .min(1, `${what} is required`)
    .max(DNS1123_LABEL_MAX, `${what} must be at most ${DNS1123_LABEL_MAX} characters`)
    .regex(
      DNS1123_LABEL,
      `${what} must consist of lower case letters, digits and '-', and start and end with a letter or digit (e.g. 'my-sandbox')`,
    );

/** A DNS-1123 subdomain: names of claims, storage classes, label prefixes. */
export const dns1123Subdomain = (what: string) =>
  z
    .string()
    .min(1, `${what} is required`)
    .max(DNS1123_SUBDOMAIN_MAX, `${what} must be at most ${DNS1123_SUBDOMAIN_MAX} characters`)
    .regex(
      DNS1123_SUBDOMAIN,
      `${what} must consist of lower case letters, digits, '-' and '.', and start and end with a letter or digit (e.g. 'fast-ssd')`,
    );

export function isDns1123Label(value: string): boolean {
  return value.length <= DNS1123_LABEL_MAX && DNS1123_LABEL.test(value);
}
