/**
 * The XML Schema of the SOAP 1.1 encoding namespace (`http://schemas.xmlsoap.org/soap/encoding/`,
 * SOAP 1.1 section 5), served by the service itself at `GET /soap/encoding/` (and under
 * `/release/{name}/`, with `/soap/encoding/groups/`), so that a client reading the WSDL never has to reach
 * schemas.xmlsoap.org: the WSDL imports it with a `schemaLocation` on the request's own origin.
 *
 * It defines what SOAP 1.1 encoding defines: the `root` attribute, the common `id`/`href`
 * attributes, `Array` (with the `arrayType`, `offset` and `position` attributes) and `Struct`,
 * `base64`, an element and complex type for every built-in simple type of XML Schema (each the
 * simple type plus the common attributes), and `anyType`.
 *
 * The schema never refers to its own components by name (`tns:…`): zeep, meeting a name of this
 * namespace in a schema document that has not imported it, fetches the schema from the namespace
 * URL, and a schema cannot import its own namespace, so a single `tns:` reference here would send
 * zeep to schemas.xmlsoap.org after all. Each reference is written out in place instead (an
 * attribute group's attributes, a type's definition), and a reference to a global attribute
 * becomes a local `form="qualified"` one, which declares the same qualified attribute. The one
 * reference that must stay a reference is the content of `Array`: zeep serialises an array type
 * (a restriction of `soapenc:Array` with a `wsdl:arrayType`) only when that content is a model
 * group reference. So the member groups also live in a namespace of their own
 * (`urn:ORTH:soap-encoding-groups`, served beside it at `/soap/encoding/groups/` and imported
 * by a relative location), and `Array` and `Struct` refer to those.
 *
 * The paths end in "/" like every non-legacy path of the service (and like the namespace name).
 */
import type { Hono } from "hono";
import type { AppEnv } from "../context.js";

export const SOAP_ENCODING_NS = "http://schemas.xmlsoap.org/soap/encoding/";
/** The schema's path on the service (after `/release/{name}` when the WSDL was read there). */
export const ENCODING_SCHEMA_PATH = "/soap/encoding/";
/** The namespace of the member groups of `Array` and `Struct`, and where its schema is served. */
export const GROUPS_NS = "urn:ORTH:soap-encoding-groups";
export const GROUPS_SCHEMA_PATH = "/soap/encoding/groups/";
const ALLOW = "GET, HEAD";

/** Where the schema is served for a SOAP endpoint at `soapUrl` (`{origin}{prefix}/soap`). */
export const encodingSchemaUrl = (soapUrl: string): string => `${soapUrl.replace(/\/soap$/, "")}${ENCODING_SCHEMA_PATH}`;

/** The built-in simple types of XML Schema, each given an element and a complex type of the same name. */
const SIMPLE_TYPES = [
  "duration", "dateTime", "time", "date", "gYearMonth", "gYear", "gMonthDay", "gDay", "gMonth",
  "boolean", "base64Binary", "hexBinary", "float", "double", "anyURI", "QName", "string",
  "normalizedString", "token", "language", "Name", "NMTOKEN", "NCName", "NMTOKENS", "ID", "IDREF",
  "ENTITY", "IDREFS", "ENTITIES", "decimal", "integer", "nonPositiveInteger", "negativeInteger",
  "long", "int", "short", "byte", "nonNegativeInteger", "unsignedLong", "unsignedInt",
  "unsignedShort", "unsignedByte", "positiveInteger",
];

const indent = (text: string, by: number): string => text.replace(/^(?=.)/gm, " ".repeat(by));
/** `open`, `content` indented under it, `close`; the whole indented by `by`. */
const block = (open: string, content: string, close: string, by = 2): string => indent(`${open}\n${indent(content, 2)}\n${close}`, by);

/** The id and href of every accessor and independent (multi-reference) value, and any foreign attribute. */
const COMMON_ATTRIBUTES = `<xs:attribute name="id" type="xs:ID"/>
<xs:attribute name="href" type="xs:anyURI"/>
<xs:anyAttribute namespace="##other" processContents="lax"/>`;
/** An array position or size: `[2]`, `[2,3]`. */
const ARRAY_COORDINATE = block("<xs:simpleType>", '<xs:restriction base="xs:string"/>', "</xs:simpleType>", 0);
/** The qualified `arrayType` and `offset` attributes of an array. */
const ARRAY_ATTRIBUTES = `<xs:attribute name="arrayType" form="qualified" type="xs:string"/>
${block('<xs:attribute name="offset" form="qualified">', ARRAY_COORDINATE, "</xs:attribute>", 0)}`;
/** The qualified `position` attribute of a member of a sparse array. */
const ARRAY_MEMBER_ATTRIBUTES = block('<xs:attribute name="position" form="qualified">', ARRAY_COORDINATE, "</xs:attribute>", 0);
/** Any content, in any order: the members of an `Array` (by position) or a `Struct` (by name). */
const ANY_CONTENT = block("<xs:sequence>", '<xs:any namespace="##any" minOccurs="0" maxOccurs="unbounded" processContents="lax"/>', "</xs:sequence>", 0);
const ARRAY_CONTENT = `<xs:group ref="g:Array" minOccurs="0"/>\n${ARRAY_ATTRIBUTES}\n${COMMON_ATTRIBUTES}`;
const STRUCT_CONTENT = `<xs:group ref="g:Struct" minOccurs="0"/>\n${COMMON_ATTRIBUTES}`;
const ANY_VALUE_CONTENT = `${ANY_CONTENT}\n${COMMON_ATTRIBUTES}`;
/** The simple type `base` with the common attributes. */
const valueContent = (base: string): string =>
  block("<xs:simpleContent>", block(`<xs:extension base="${base}">`, COMMON_ATTRIBUTES, "</xs:extension>", 0), "</xs:simpleContent>", 0);

/** A complex type `name`, and an element `name` of the same content (in an anonymous type). */
function typeAndElement(name: string, content: string, mixed = false): string {
  const m = mixed ? ' mixed="true"' : "";
  return [
    block(`<xs:complexType name="${name}"${m}>`, content, "</xs:complexType>"),
    block(`<xs:element name="${name}">`, block(`<xs:complexType${m}>`, content, "</xs:complexType>", 0), "</xs:element>"),
  ].join("\n");
}

export const ENCODING_SCHEMA = `<?xml version="1.0" encoding="UTF-8"?>
<!-- The SOAP 1.1 encoding schema (SOAP 1.1, section 5), served by this service so that
     clients need not fetch it from ${SOAP_ENCODING_NS} -->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:g="${GROUPS_NS}" targetNamespace="${SOAP_ENCODING_NS}">
  <!-- The member groups of Array and Struct (see the service's soap/encoding-schema.ts). -->
  <xs:import namespace="${GROUPS_NS}" schemaLocation="groups/"/>

  <!-- Tells the roots of a serialization from the other elements of it. -->
${block('<xs:attribute name="root">', block("<xs:simpleType>", block('<xs:restriction base="xs:boolean">', '<xs:pattern value="0|1"/>', "</xs:restriction>", 0), "</xs:simpleType>", 0), "</xs:attribute>")}

  <!-- On every accessor and independent (multi-reference) value: an id, or a reference to one. -->
${block('<xs:attributeGroup name="commonAttributes">', COMMON_ATTRIBUTES, "</xs:attributeGroup>")}

  <!-- Arrays: the type and dimensions of the members (arrayType, e.g. xsd:string[3]), the
       offset of a partially transmitted array, and the position of a sparse array's member. -->
${block('<xs:simpleType name="arrayCoordinate">', '<xs:restriction base="xs:string"/>', "</xs:simpleType>")}
  <xs:attribute name="arrayType" type="xs:string"/>
${block('<xs:attribute name="offset">', ARRAY_COORDINATE, "</xs:attribute>")}
${block('<xs:attributeGroup name="arrayAttributes">', ARRAY_ATTRIBUTES, "</xs:attributeGroup>")}
${block('<xs:attribute name="position">', ARRAY_COORDINATE, "</xs:attribute>")}
${block('<xs:attributeGroup name="arrayMemberAttributes">', ARRAY_MEMBER_ATTRIBUTES, "</xs:attributeGroup>")}

  <!-- Array: members identified by position. -->
${block('<xs:group name="Array">', ANY_CONTENT, "</xs:group>")}
${typeAndElement("Array", ARRAY_CONTENT)}

  <!-- Struct: members identified by name, each name at most once. -->
${block('<xs:group name="Struct">', ANY_CONTENT, "</xs:group>")}
${typeAndElement("Struct", STRUCT_CONTENT)}

  <!-- base64: binary data in base64 (RFC 2045) without MIME's line length limit. -->
${block('<xs:simpleType name="base64">', '<xs:restriction base="xs:base64Binary"/>', "</xs:simpleType>")}
${block('<xs:element name="base64">', block("<xs:simpleType>", '<xs:restriction base="xs:base64Binary"/>', "</xs:simpleType>", 0), "</xs:element>")}

  <!-- An element and a type for each built-in simple type of XML Schema. -->
${typeAndElement("NOTATION", valueContent("xs:QName"))}
${SIMPLE_TYPES.map((name) => typeAndElement(name, valueContent(`xs:${name}`))).join("\n")}

  <!-- Any value. -->
${typeAndElement("anyType", ANY_VALUE_CONTENT, true)}
</xs:schema>
`;

/** The member groups of the encoding schema's `Array` (by position) and `Struct` (by name). */
export const GROUPS_SCHEMA = `<?xml version="1.0" encoding="UTF-8"?>
<!-- The member groups of Array and Struct of the SOAP 1.1 encoding schema this service serves
     at ../ (a namespace of their own, so that schema need not refer to its own namespace) -->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${GROUPS_NS}">
${block('<xs:group name="Array">', ANY_CONTENT, "</xs:group>")}
${block('<xs:group name="Struct">', ANY_CONTENT, "</xs:group>")}
</xs:schema>
`;

/**
 * `GET /soap/encoding/` and `/soap/encoding/groups/` (HEAD follows): the two schemas, the same
 * for every release and origin (the import between them is relative). The edge cache gives them
 * `ETag` and `Cache-Control` as every GET; other methods get 405.
 */
export function encodingSchemaRoutes(app: Hono<AppEnv>) {
  for (const [path, schema] of [[ENCODING_SCHEMA_PATH, ENCODING_SCHEMA], [GROUPS_SCHEMA_PATH, GROUPS_SCHEMA]]) {
    app.get(path, () => new Response(schema, { headers: { "Content-Type": "text/xml; charset=utf-8", Allow: ALLOW } }));
    app.on(["POST", "PUT", "PATCH", "DELETE", "OPTIONS"], path, (c) =>
      c.json({ detail: `Method "${c.req.method}" not allowed.` }, 405, { Allow: ALLOW }),
    );
  }
}
