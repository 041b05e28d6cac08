/** The readers' tests use the shared-data location of the whole suite; warned once per file. */
import { hasSharedData, warnWithoutSharedData } from "../../shared-data.js";

export { data, hasSharedData, SHARED_DATA } from "../../shared-data.js";

if (!hasSharedData) warnWithoutSharedData("real-data reader tests");
