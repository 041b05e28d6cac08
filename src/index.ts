/** The worker's entry: the app (src/app.ts) on the RELEASES binding. */
import { createApp } from "./app.js";

export default createApp();
