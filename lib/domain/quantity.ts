import { z } from "zod";

// The grammar of resource.Quantity (k8s.io/apimachinery/pkg/api/resource):
//   <signedNumber><suffix>, suffix = binarySI (Ki..Ei) | decimalSI (n u m "" k M G T P E) | e<exp>
const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** The value of a Kubernetes quantity in base units (bytes, cores), or null if it is not one. */
export function parseQuantity(text: string): number | null {
  const match = QUANTITY.exec(text);
  if (!match) return null;
  const number = Number(match[1]);
  const suffix = match[2] ?? "";
  if (suffix === "") return number;
  if (suffix in BINARY) return number * BINARY[suffix]!;
  if (suffix in DECIMAL) return number * DECIMAL[suffix]!;
  return number * 10 ** Number(suffix.slice(1));
}

/** A Kubernetes quantity such as `2Gi`, `500m` or `1e9`, which must be greater than zero. */
export const positiveQuantity = (what: string) =>
  z.string().refine(
    (text) => {
      const value = parseQuantity(text);
      return value !== null && value > 0;
    },
    { message: `${what} must be a positive Kubernetes quantity such as 2Gi, 500Mi or 10G` },
  );
