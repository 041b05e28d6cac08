/**
 * Any error of a SOAP call as the fault it is answered with: the caller's mistakes (a body
 * refused at the entry, an unknown release, a bad envelope) are Client faults, storage faults
 * and anything unexpected Server faults.
 */
import { ApiError } from "../errors.js";
import { RequestBodyRefused } from "../middleware/request-body.js";
import { malformed, SoapFault } from "./envelope.js";

export function faultOf(error: Error): SoapFault {
  if (error instanceof SoapFault) return error;
  if (error instanceof RequestBodyRefused) {
    return malformed(error.reason === "too-large" ? `the body is larger than ${error.cap} bytes` : "the body was cut short");
  }
  if (error instanceof ApiError && error.status === 503) return new SoapFault("Server", error.detail);
  // E.g. `/release/{name}/soap` naming no release: "Unknown release: {name}".
  if (error instanceof ApiError && error.status < 500) return new SoapFault("Client", error.detail);
  console.error("SOAP call failed:", error);
  return new SoapFault("Server", "Internal server error.");
}
