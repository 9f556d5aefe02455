/** The part of autocannon's programmatic API the bench uses (the package ships no types). */
declare module "autocannon" {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  export interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
  export interface RequestSpec extends RawRequest {
    /** A function, or (with `workers`) the path of a CommonJS file exporting one. */
    setupRequest?: string | ((request: RawRequest, context: Record<string, unknown>) => RawRequest);
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestSpec[];
    timeout?: number;
    workers?: number;
  }
  export interface Result {
    latency: Histogram & { totalCount: number };
    requests: Histogram & { total: number; sent: number };
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  export interface Instance extends Promise<Result> {
    stop(): void;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
