import { describeRobustness } from "./robustness/suite";

/** Shard 4 of the generated robustness suite (test/platform/robustness/suite.ts). */
describeRobustness(4, 4);
