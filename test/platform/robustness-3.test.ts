import { describeRobustness } from "./robustness/suite";

/** Shard 3 of the generated robustness suite (test/platform/robustness/suite.ts). */
describeRobustness(3, 4);
