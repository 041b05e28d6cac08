// msgpackr requires this inside try/catch and falls back to its JavaScript decoder.
throw new Error("msgpackr-extract is not installed in this project (see package.json)");
