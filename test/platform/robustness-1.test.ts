import { describeRobustness } from "./robustness/suite";

/** Shard 1 of the generated robustness suite (test/platform/robustness/suite.ts). */
describeRobustness(1, 4);
