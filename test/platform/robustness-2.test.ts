import { describeRobustness } from "./robustness/suite";

/** Shard 2 of the generated robustness suite (test/platform/robustness/suite.ts). */
describeRobustness(2, 4);
