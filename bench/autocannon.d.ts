// The few parts of autocannon's API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface Result {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    errors: number
    non2xx: number
  }
  function autocannon(options: Record<string, unknown>): Promise<Result>
  export default autocannon
}
