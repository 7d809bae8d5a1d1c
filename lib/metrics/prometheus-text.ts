// A writer of the Prometheus text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/). Pure: metric families in, text out.
//
// The output is deterministic: families sorted by name, the labels of a sample by label name,
// the samples of a family by their labels. A histogram's series is written as its cumulative
// `_bucket{le="…"}` samples in increasing `le` ending with `le="+Inf"`, then `_sum` and `_count`,
// as the Go client writes them. Anything the format cannot carry (a bad name, a repeated series,
// a counter going negative, buckets that are not cumulative) is refused with a
// PrometheusFormatError rather than written as text a scraper would reject or misread.

/** The Content-Type of a response that carries this format. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Label name → value. Values are any string: they are escaped on output. */
export type Labels = Readonly<Record<string, string>>;

export interface Sample {
  labels: Labels;
  value: number;
}

/** One labelled histogram series: counts per upper bound, cumulative, in the family's bucket order. */
export interface HistogramSeries {
  labels: Labels;
  /** `bucketCounts[i]` is the number of observations ≤ `buckets[i]`; the +Inf bucket is `count`. */
  bucketCounts: readonly number[];
  sum: number;
  count: number;
}

interface FamilyBase {
  /** The family's name: for a counter, the sample name, `_total` included. */
  name: string;
  /** What the family measures, in plain words. */
  help: string;
}

export interface CounterFamily extends FamilyBase {
  type: "counter";
  samples: readonly Sample[];
}

export interface GaugeFamily extends FamilyBase {
  type: "gauge";
  samples: readonly Sample[];
}

export interface HistogramFamily extends FamilyBase {
  type: "histogram";
  /** Finite upper bounds, strictly increasing; `+Inf` is implied and written by the writer. */
  buckets: readonly number[];
  series: readonly HistogramSeries[];
}

export type MetricFamily = CounterFamily | GaugeFamily | HistogramFamily;

/** Input the text format cannot express; the message names the family and what is wrong. */
export class PrometheusFormatError extends Error {
  override name = "PrometheusFormatError";
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A histogram series computed from raw observations, with the cumulative counts the format wants. */
export function histogramOf(buckets: readonly number[], observations: readonly number[], labels: Labels = {}): HistogramSeries {
  checkBuckets("histogramOf", buckets);
  const bucketCounts = buckets.map((bound) => observations.filter((value) => value <= bound).length);
  const sum = observations.reduce((total, value) => total + value, 0);
  return { labels, bucketCounts, sum, count: observations.length };
}

/**
 * A number as Prometheus reads it: `+Inf`, `-Inf`, `NaN`, and integers in plain digits
 * (no exponent) however large; other values in JavaScript's shortest round-trip form,
 * which Prometheus parses (e.g. `0.1`, `1e-7`).
 */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  if (Object.is(value, -0)) return "0";
  if (Number.isInteger(value)) return BigInt(value).toString();
  return String(value);
}

/** A label value between double quotes: backslash, double quote and newline escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** HELP text: backslash and newline escaped (a double quote stays as it is). */
export function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** The exposition of these families: one HELP and one TYPE line each, then its samples. */
export function renderPrometheusText(families: readonly MetricFamily[]): string {
  checkFamilyNames(families);
  const sorted = [...families].sort((a, b) => compareStrings(a.name, b.name));
  return sorted.map(renderFamily).join("");
}

function renderFamily(family: MetricFamily): string {
  const lines = [`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`];
  if (family.type === "histogram") {
    checkBuckets(family.name, family.buckets);
    for (const series of sortByLabels(family.name, family.series)) lines.push(...histogramLines(family, series));
  } else {
    for (const sample of sortByLabels(family.name, family.samples)) {
      if (family.type === "counter" && !(sample.value >= 0)) {
        throw new PrometheusFormatError(`${family.name}: a counter cannot be ${formatNumber(sample.value)}${labelSuffix(sample.labels)}`);
      }
      lines.push(`${family.name}${renderLabels(sample.labels)} ${formatNumber(sample.value)}`);
    }
  }
  return lines.map((line) => `${line}\n`).join("");
}

function histogramLines(family: HistogramFamily, series: HistogramSeries): string[] {
  const where = `${family.name}${labelSuffix(series.labels)}`;
  if ("le" in series.labels) throw new PrometheusFormatError(`${where}: "le" is reserved for histogram buckets`);
  if (series.bucketCounts.length !== family.buckets.length) {
    throw new PrometheusFormatError(`${where}: ${series.bucketCounts.length} bucket counts for ${family.buckets.length} buckets`);
  }
  const counts = [...series.bucketCounts, series.count];
  counts.forEach((count, index) => {
    if (!Number.isInteger(count) || count < 0) throw new PrometheusFormatError(`${where}: a bucket count must be a whole number ≥ 0, not ${count}`);
    const previous = counts[index - 1];
    if (previous !== undefined && count < previous) {
      throw new PrometheusFormatError(`${where}: bucket counts must be cumulative (never decreasing, and count ≥ every bucket)`);
    }
  });
  const bounds = [...family.buckets, Infinity];
  return [
    ...bounds.map((bound, index) => `${family.name}_bucket${renderLabels(series.labels, formatNumber(bound))} ${formatNumber(counts[index]!)}`),
    `${family.name}_sum${renderLabels(series.labels)} ${formatNumber(series.sum)}`,
    `${family.name}_count${renderLabels(series.labels)} ${formatNumber(series.count)}`,
  ];
}

/** `{a="1",b="2"}` with names in order and `le` last, as the Go client writes it; "" when there are none. */
function renderLabels(labels: Labels, le?: string): string {
  const pairs = labelPairs(labels).map(([name, value]) => `${name}="${escapeLabelValue(value)}"`);
  if (le !== undefined) pairs.push(`le="${le}"`);
  return pairs.length === 0 ? "" : `{${pairs.join(",")}}`;
}

function labelPairs(labels: Labels): [string, string][] {
  return Object.entries(labels).sort(([a], [b]) => compareStrings(a, b));
}

/** Samples ordered by their label pairs (name, then value, pair by pair); a repeated label set is refused. */
function sortByLabels<T extends { labels: Labels }>(family: string, samples: readonly T[]): T[] {
  const keyed = samples.map((sample) => {
    for (const name of Object.keys(sample.labels)) checkLabelName(family, name);
    return { sample, pairs: labelPairs(sample.labels) };
  });
  keyed.sort((a, b) => comparePairs(a.pairs, b.pairs));
  keyed.forEach((entry, index) => {
    const previous = keyed[index - 1];
    if (previous && comparePairs(previous.pairs, entry.pairs) === 0) {
      throw new PrometheusFormatError(`${family}: the series${labelSuffix(entry.sample.labels) || " without labels"} appears twice`);
    }
  });
  return keyed.map((entry) => entry.sample);
}

function comparePairs(a: [string, string][], b: [string, string][]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const [nameA, valueA] = a[index]!;
    const [nameB, valueB] = b[index]!;
    const order = compareStrings(nameA, nameB) || compareStrings(valueA, valueB);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/** By UTF-16 code unit, never by locale: the same order on every machine. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Valid names, no family twice, and no family whose samples would carry another family's sample name. */
function checkFamilyNames(families: readonly MetricFamily[]): void {
  const owners = new Map<string, string>();
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) {
      throw new PrometheusFormatError(`metric name ${JSON.stringify(family.name)} must match [a-zA-Z_:][a-zA-Z0-9_:]*`);
    }
    const sampleNames = family.type === "histogram" ? [family.name, `${family.name}_bucket`, `${family.name}_sum`, `${family.name}_count`] : [family.name];
    for (const sampleName of sampleNames) {
      const owner = owners.get(sampleName);
      if (owner !== undefined) {
        throw new PrometheusFormatError(
          owner === family.name ? `metric family ${family.name} appears twice` : `metric families ${owner} and ${family.name} both write ${sampleName}`,
        );
      }
      owners.set(sampleName, family.name);
    }
  }
}

function checkLabelName(family: string, name: string): void {
  if (!LABEL_NAME.test(name)) throw new PrometheusFormatError(`${family}: label name ${JSON.stringify(name)} must match [a-zA-Z_][a-zA-Z0-9_]*`);
  if (name.startsWith("__")) throw new PrometheusFormatError(`${family}: label name ${JSON.stringify(name)} starts with "__", which Prometheus reserves`);
}

function checkBuckets(where: string, buckets: readonly number[]): void {
  buckets.forEach((bound, index) => {
    if (!Number.isFinite(bound)) throw new PrometheusFormatError(`${where}: bucket bounds must be finite (+Inf is added for you), not ${formatNumber(bound)}`);
    const previous = buckets[index - 1];
    if (previous !== undefined && bound <= previous) throw new PrometheusFormatError(`${where}: bucket bounds must be strictly increasing`);
  });
}

/** ` {a="1"}` for error messages; "" when there are no labels. */
function labelSuffix(labels: Labels): string {
  const rendered = renderLabels(labels);
  return rendered === "" ? "" : ` ${rendered}`;
}
