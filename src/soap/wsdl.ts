/**
 * The WSDL 1.1 document of the SOAP interface (reference D.3), its address from the request
 * origin. The SOAP encoding schema it builds on is imported from the service itself
 * (`{origin}{prefix}/soap/encoding/`, soap/encoding-schema.ts), so a client that reaches only
 * the service can read the WSDL whole.
 */
import { nameIn, type FieldNames } from "../render/field-names.js";
import { xmlEscape } from "../render/xml.js";
import { encodingSchemaUrl, SOAP_ENCODING_NS } from "./encoding-schema.js";
import { ORTH_NS } from "./xml-out.js";

type Part = [name: string, type: string];

/** Operations: input parts, output parts. */
export const OPERATIONS: Record<string, { input: Part[]; output: Part[] }> = {
  TestOrthology: { input: [["EntryID1", "xsd:string"], ["EntryID2", "xsd:string"]], output: [["OrthoType", "xsd:string"]] },
  ListOrthologs: { input: [["EntryID", "xsd:string"]], output: [["IDs", "tns:ArrayOfString"]] },
  GetOrthGroup: { input: [["GroupNr", "xsd:int"]], output: [["IDs", "tns:ArrayOfString"]] },
  GetEntry: {
    input: [["EntryID", "xsd:string"]],
    output: [["IDs", "tns:ArrayOfString"], ["Sequence", "xsd:string"], ["Organism", "xsd:string"], ["OrthGroup", "xsd:int"]],
  },
  IdentifySequence: { input: [["Sequence", "xsd:string"]], output: [["IDs", "tns:ArrayOfString"]] },
  GetMatrixInfo: { input: [], output: [["Name", "xsd:string"], ["NumSpecies", "xsd:int"], ["NumGroups", "xsd:int"]] },
  ListIDTypes: { input: [], output: [["IDLists", "tns:ArrayOfIDType"]] },
  MapIDs: { input: [["InIDs", "tns:ArrayOfString"], ["OutType", "xsd:int"]], output: [["OutIDs", "tns:ArrayOfArrayOfString"]] },
};

/** A SOAP-encoded array type of `item` elements. */
function soapArray(name: string, itemType: string): string {
  return `      <xsd:complexType name="${name}">
        <xsd:complexContent>
          <xsd:restriction base="soapenc:Array">
            <xsd:attribute ref="soapenc:arrayType" wsdl:arrayType="${itemType}[]"/>
          </xsd:restriction>
        </xsd:complexContent>
      </xsd:complexType>`;
}

/** The WSDL for a SOAP endpoint at `soapUrl`, every operation, part, namespace and component named as the profile names them. */
export function wsdl(soapUrl: string, profile: FieldNames = "orth"): string {
  const named = (orthName: string) => nameIn(profile, "soap", orthName);
  const orthNames = Object.keys(OPERATIONS);
  const names = orthNames.map(named);
  const message = (name: string, parts: Part[]) =>
    `  <message name="${name}">${parts.map(([n, t]) => `\n    <part name="${named(n)}" type="${t}"/>`).join("")}\n  </message>`;
  const ns = named(ORTH_NS);
  const body = `<soap:body use="encoded" namespace="${ns}" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions name="${named("ORTH")}" targetNamespace="${ns}" xmlns:tns="${ns}"
    xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <types>
    <xsd:schema targetNamespace="${ns}">
      <xsd:import namespace="${SOAP_ENCODING_NS}" schemaLocation="${xmlEscape(encodingSchemaUrl(soapUrl))}"/>
      <xsd:import namespace="http://schemas.xmlsoap.org/wsdl/"/>
${soapArray("ArrayOfString", "xsd:string")}
${soapArray("ArrayOfArrayOfString", "tns:ArrayOfString")}
      <xsd:complexType name="IDType">
        <xsd:sequence>
          <xsd:element name="TypeNr" type="xsd:int"/>
          <xsd:element name="TypeName" type="xsd:string"/>
        </xsd:sequence>
      </xsd:complexType>
${soapArray("ArrayOfIDType", "tns:IDType")}
    </xsd:schema>
  </types>
${orthNames.map((o, i) => `${message(`${names[i]}Request`, OPERATIONS[o].input)}\n${message(`${names[i]}Response`, OPERATIONS[o].output)}`).join("\n")}
  <portType name="${named("ORTHPort")}">
${names.map((n) => `    <operation name="${n}">\n      <input message="tns:${n}Request"/>\n      <output message="tns:${n}Response"/>\n    </operation>`).join("\n")}
  </portType>
  <binding name="${named("ORTHBinding")}" type="tns:${named("ORTHPort")}">
    <soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
${names.map((n) => `    <operation name="${n}">\n      <soap:operation soapAction="" style="rpc"/>\n      <input>${body}</input>\n      <output>${body}</output>\n    </operation>`).join("\n")}
  </binding>
  <service name="${named("ORTHService")}">
    <port name="${named("ORTHPort")}" binding="tns:${named("ORTHBinding")}">
      <soap:address location="${xmlEscape(soapUrl)}"/>
    </port>
  </service>
</definitions>
`;
}
