// The Element Timing API's attribute (https://w3c.github.io/element-timing/): the browser reports
// when the marked element's text or image was first painted, for the benchmarks to read. React
// renders it as it is; its types do not list it yet. Chromium reports text for the block that
// holds it: mark a cell or a paragraph, not a link.
import "react";

declare module "react" {
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
