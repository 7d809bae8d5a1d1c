import { describe, expect, it } from "vitest";
import {
  PROMETHEUS_CONTENT_TYPE,
  PrometheusFormatError,
  formatNumber,
  histogramOf,
  renderPrometheusText,
  type CounterFamily,
  type GaugeFamily,
  type HistogramFamily,
  type HistogramSeries,
  type Labels,
} from "./prometheus-text.ts";

const aCounter = (samples: { labels?: Labels; value: number }[] = [], name = "jobs_total"): CounterFamily => ({
  type: "counter",
  name,
  help: "Jobs done.",
  samples: samples.map(({ labels = {}, value }) => ({ labels, value })),
});

const aGauge = (samples: { labels?: Labels; value: number }[] = [], name = "queue_length"): GaugeFamily => ({
  type: "gauge",
  name,
  help: "Jobs waiting.",
  samples: samples.map(({ labels = {}, value }) => ({ labels, value })),
});

const aHistogram = (series: HistogramSeries[], buckets: number[] = [1, 5], name = "wait_seconds"): HistogramFamily => ({ type: "histogram", name, help: "Time waited.", buckets, series });

/** The lines of the output, without HELP and TYPE. */
const samplesOf = (text: string) => text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));

describe("the Prometheus text writer", () => {
  it("names the content type of version 0.0.4", () => {
    expect(PROMETHEUS_CONTENT_TYPE).toBe("text/plain; version=0.0.4; charset=utf-8");
  });

  it("writes a small exposition exactly (golden)", () => {
    const text = renderPrometheusText([
      aHistogram([histogramOf([1, 5], [0.5, 3, 9])]),
      aCounter([{ labels: { queue: "b" }, value: 2 }, { labels: { queue: "a" }, value: 7 }]),
      aGauge([{ value: 4 }]),
    ]);
    expect(text).toBe(
      [
        "# HELP jobs_total Jobs done.",
        "# TYPE jobs_total counter",
        'jobs_total{queue="a"} 7',
        'jobs_total{queue="b"} 2',
        "# HELP queue_length Jobs waiting.",
        "# TYPE queue_length gauge",
        "queue_length 4",
        "# HELP wait_seconds Time waited.",
        "# TYPE wait_seconds histogram",
        'wait_seconds_bucket{le="1"} 1',
        'wait_seconds_bucket{le="5"} 2',
        'wait_seconds_bucket{le="+Inf"} 3',
        "wait_seconds_sum 12.5",
        "wait_seconds_count 3",
        "",
      ].join("\n"),
    );
  });

  it("writes nothing for no families", () => {
    expect(renderPrometheusText([])).toBe("");
  });

  it("writes HELP and TYPE for a family with no samples yet", () => {
    expect(renderPrometheusText([aCounter()])).toBe("# HELP jobs_total Jobs done.\n# TYPE jobs_total counter\n");
  });
});

describe("escaping", () => {
  it("escapes backslash, double quote and newline in label values", () => {
    const text = renderPrometheusText([aGauge([{ labels: { path: 'C:\\dir "x"\nnext' }, value: 1 }])]);
    expect(samplesOf(text)).toEqual(['queue_length{path="C:\\\\dir \\"x\\"\\nnext"} 1']);
  });

  it("escapes backslash and newline in HELP text, and leaves double quotes alone", () => {
    const text = renderPrometheusText([{ ...aGauge(), help: 'A "path" like C:\\tmp\nsecond line' }]);
    expect(text.split("\n")[0]).toBe('# HELP queue_length A "path" like C:\\\\tmp\\nsecond line');
  });
});

describe("numbers", () => {
  it.each([
    [0, "0"],
    [-0, "0"],
    [42, "42"],
    [-3, "-3"],
    [1_000_000, "1000000"],
    [1e21, "1000000000000000000000"],
    [0.1, "0.1"],
    [12.5, "12.5"],
    [1e-7, "1e-7"],
    [Infinity, "+Inf"],
    [-Infinity, "-Inf"],
    [NaN, "NaN"],
  ])("writes %s as %s", (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });

  it("writes bucket bounds in the same form as values", () => {
    const text = renderPrometheusText([aHistogram([histogramOf([0.1, 1e6], [])], [0.1, 1e6])]);
    expect(samplesOf(text).slice(0, 3)).toEqual(['wait_seconds_bucket{le="0.1"} 0', 'wait_seconds_bucket{le="1000000"} 0', 'wait_seconds_bucket{le="+Inf"} 0']);
  });
});

describe("histograms", () => {
  it("counts each observation in every bucket whose bound it does not exceed (cumulative, bound inclusive)", () => {
    expect(histogramOf([1, 5, 10], [1, 2, 5, 7, 20]).bucketCounts).toEqual([1, 3, 4]);
  });

  it("ends every series with an le=+Inf bucket equal to its count", () => {
    const text = renderPrometheusText([aHistogram([histogramOf([1, 5], [100, 200])])]);
    expect(samplesOf(text)).toContain('wait_seconds_bucket{le="+Inf"} 2');
  });

  it("puts le after the series' own labels", () => {
    const text = renderPrometheusText([aHistogram([histogramOf([1, 5], [2], { queue: "a" })])]);
    expect(samplesOf(text)[0]).toBe('wait_seconds_bucket{queue="a",le="1"} 0');
  });

  it("refuses bucket counts that decrease", () => {
    const series: HistogramSeries = { labels: {}, bucketCounts: [3, 2], sum: 1, count: 3 };
    expect(() => renderPrometheusText([aHistogram([series])])).toThrow(/cumulative/);
  });

  it("refuses a count below the last bucket", () => {
    const series: HistogramSeries = { labels: {}, bucketCounts: [1, 2], sum: 1, count: 1 };
    expect(() => renderPrometheusText([aHistogram([series])])).toThrow(/cumulative/);
  });

  it("refuses bucket counts that do not match the buckets", () => {
    const series: HistogramSeries = { labels: {}, bucketCounts: [1], sum: 1, count: 1 };
    expect(() => renderPrometheusText([aHistogram([series])])).toThrow(/1 bucket counts for 2 buckets/);
  });

  it("refuses bounds that do not increase", () => {
    expect(() => histogramOf([5, 1], [])).toThrow(/strictly increasing/);
  });

  it("refuses +Inf as a bound, since the writer adds it", () => {
    expect(() => histogramOf([1, Infinity], [])).toThrow(/finite/);
  });

  it("refuses an le label of its own", () => {
    expect(() => renderPrometheusText([aHistogram([histogramOf([1, 5], [], { le: "x" })])])).toThrow(/"le" is reserved/);
  });
});

describe("order", () => {
  it("sorts families by name", () => {
    const text = renderPrometheusText([aGauge([], "b_metric"), aGauge([], "a_metric")]);
    expect(text.split("\n").filter((line) => line.startsWith("# TYPE"))).toEqual(["# TYPE a_metric gauge", "# TYPE b_metric gauge"]);
  });

  it("sorts samples by label values", () => {
    const text = renderPrometheusText([aGauge(["Ready", "Error", "Pending"].map((phase) => ({ labels: { phase }, value: 1 })))]);
    expect(samplesOf(text)).toEqual(['queue_length{phase="Error"} 1', 'queue_length{phase="Pending"} 1', 'queue_length{phase="Ready"} 1']);
  });

  it("writes a sample's labels in name order", () => {
    const text = renderPrometheusText([aGauge([{ labels: { zone: "z", app: "a" }, value: 1 }])]);
    expect(samplesOf(text)).toEqual(['queue_length{app="a",zone="z"} 1']);
  });

  it("gives the same text whatever order the input came in", () => {
    const samples: { labels: Labels; value: number }[] = [{ labels: { q: "b" }, value: 1 }, { labels: { q: "a" }, value: 2 }, { labels: {}, value: 3 }];
    const forwards = renderPrometheusText([aCounter(samples), aGauge()]);
    const backwards = renderPrometheusText([aGauge(), aCounter([...samples].reverse())]);
    expect(backwards).toBe(forwards);
  });
});

describe("what the format cannot carry", () => {
  it.each(["9lives", "has-dash", "", "spa ce"])("refuses the metric name %j", (name) => {
    expect(() => renderPrometheusText([aGauge([], name)])).toThrow(PrometheusFormatError);
  });

  it("accepts a colon in a metric name", () => {
    expect(() => renderPrometheusText([aGauge([], "job:queue_length:sum")])).not.toThrow();
  });

  it.each(["has:colon", "9lives", "has-dash", ""])("refuses the label name %j", (name) => {
    expect(() => renderPrometheusText([aGauge([{ labels: { [name]: "x" }, value: 1 }])])).toThrow(/must match \[a-zA-Z_\]\[a-zA-Z0-9_\]\*/);
  });

  it("refuses a label name starting with __, which Prometheus reserves", () => {
    expect(() => renderPrometheusText([aGauge([{ labels: { __name__: "x" }, value: 1 }])])).toThrow(/reserves/);
  });

  it("refuses the same series twice", () => {
    expect(() => renderPrometheusText([aGauge([{ labels: { q: "a" }, value: 1 }, { labels: { q: "a" }, value: 2 }])])).toThrow(/appears twice/);
  });

  it("refuses the same family twice", () => {
    expect(() => renderPrometheusText([aGauge(), aGauge()])).toThrow(/queue_length appears twice/);
  });

  it("refuses a family whose name another family's samples use", () => {
    expect(() => renderPrometheusText([aHistogram([]), aCounter([], "wait_seconds_count")])).toThrow(/both write wait_seconds_count/);
  });

  it.each([-1, NaN])("refuses a counter of %s", (value) => {
    expect(() => renderPrometheusText([aCounter([{ value }])])).toThrow(/a counter cannot be/);
  });

  it("lets a gauge go negative", () => {
    expect(samplesOf(renderPrometheusText([aGauge([{ value: -1 }])]))).toEqual(["queue_length -1"]);
  });
});
