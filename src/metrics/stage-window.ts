// A stage of an open loop's load profile, as the arrivals module describes it (same shape: the
// metrics take stages as plain data and never import the runner's schedule).
export interface StageWindow {
  index: number;
  from_rate: number;
  to_rate: number;
  /** ms since the run's start. */
  start_ms: number;
  end_ms: number;
}
