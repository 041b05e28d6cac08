/**
 * SOAP 1.1 RPC/encoded responses and faults: every value typed with `xsi:type`, lists as
 * `soapenc:Array` of `item` elements.
 */
import { nameIn, type FieldNames } from "../render/field-names.js";
import { xmlEscape as escapeXml } from "../render/xml.js";
import { SOAP_ENV, type SoapFault } from "./envelope.js";

/** The namespace of the operations (its orth name; `nameIn(names, "soap", ORTH_NS)` in a profile). */
export const ORTH_NS = "urn:ORTH";
const ENCODING = "http://schemas.xmlsoap.org/soap/encoding/";

/** A typed value of a response part. */
export type SoapValue =
  | { type: "string"; value: string }
  | { type: "int"; value: number }
  | { type: "strings"; value: string[] }
  | { type: "stringLists"; value: string[][] }
  | { type: "idTypes"; value: Array<{ nr: number; name: string }> };

function value(name: string, v: SoapValue): string {
  switch (v.type) {
    case "string":
      return `<${name} xsi:type="xsd:string">${escapeXml(v.value)}</${name}>`;
    case "int":
      return `<${name} xsi:type="xsd:int">${v.value}</${name}>`;
    case "strings":
      return `<${name} xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[${v.value.length}]">${v.value.map((s) => `<item xsi:type="xsd:string">${escapeXml(s)}</item>`).join("")}</${name}>`;
    case "stringLists":
      return `<${name} xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[][${v.value.length}]">${v.value.map((list) => value("item", { type: "strings", value: list })).join("")}</${name}>`;
    case "idTypes":
      return `<${name} xsi:type="soapenc:Array" soapenc:arrayType="tns:IDType[${v.value.length}]">${v.value
        .map((t) => `<item xsi:type="tns:IDType"><TypeNr xsi:type="xsd:int">${t.nr}</TypeNr><TypeName xsi:type="xsd:string">${escapeXml(t.name)}</TypeName></item>`)
        .join("")}</${name}>`;
  }
}

function envelope(body: string, names: FieldNames): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<soap:Envelope xmlns:soap="${SOAP_ENV}" xmlns:soapenc="${ENCODING}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="${nameIn(names, "soap", ORTH_NS)}" soap:encodingStyle="${ENCODING}"><soap:Body>${body}</soap:Body></soap:Envelope>\n`;
}

const XML_TYPE = "text/xml; charset=utf-8";

/** The answer of an operation (`operation` and the part names as orth names, written as `names` names them). */
export function soapResponse(operation: string, parts: Array<[string, SoapValue]>, names: FieldNames = "orth"): Response {
  const element = `${nameIn(names, "soap", operation)}Response`;
  const body = `<ns:${element} xmlns:ns="${nameIn(names, "soap", ORTH_NS)}">${parts.map(([name, v]) => value(nameIn(names, "soap", name), v)).join("")}</ns:${element}>`;
  return new Response(envelope(body, names), { headers: { "Content-Type": XML_TYPE } });
}

/** A fault: HTTP 500, as SOAP 1.1 over HTTP has it; never cached. */
export function soapFault(fault: SoapFault, names: FieldNames = "orth"): Response {
  const body = `<soap:Fault><faultcode>soap:${fault.code}</faultcode><faultstring>${escapeXml(fault.faultString)}</faultstring></soap:Fault>`;
  return new Response(envelope(body, names), { status: 500, headers: { "Content-Type": XML_TYPE, "Cache-Control": "no-store" } });
}
