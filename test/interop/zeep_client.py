#!/usr/bin/env python3
"""Drives the eight SOAP operations with Python zeep from the served WSDL, and compares
every answer with the expected answers of a JSON file (see soap-clients.sh).

usage: zeep_client.py WSDL_URL EXPECTED_JSON
Exit status: 0 all answers as expected, 1 a mismatch, 2 a usage or setup error.
"""
import json
import sys

try:
    import zeep
    from zeep.exceptions import Fault
    from zeep.transports import Transport
except ImportError as error:  # pragma: no cover
    print(f"zeep: cannot import zeep ({error})", file=sys.stderr)
    sys.exit(2)

SOAPENC = "http://schemas.xmlsoap.org/soap/encoding/"

# zeep imports the SOAP encoding schema (for soapenc:Array) from its namespace URL whenever a
# WSDL uses it, whether or not the WSDL names a location. Tests run offline, so the parts of
# that schema an RPC/encoded WSDL refers to are given here instead of being downloaded.
SOAPENC_SCHEMA = b"""<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:tns="http://schemas.xmlsoap.org/soap/encoding/"
    targetNamespace="http://schemas.xmlsoap.org/soap/encoding/">
  <xs:attributeGroup name="commonAttributes">
    <xs:attribute name="id" type="xs:ID"/>
    <xs:attribute name="href" type="xs:anyURI"/>
    <xs:anyAttribute namespace="##other" processContents="lax"/>
  </xs:attributeGroup>
  <xs:attribute name="arrayType" type="xs:string"/>
  <xs:attribute name="offset" type="xs:string"/>
  <xs:attributeGroup name="arrayAttributes">
    <xs:attribute ref="tns:arrayType"/>
    <xs:attribute ref="tns:offset"/>
  </xs:attributeGroup>
  <xs:group name="Array">
    <xs:sequence>
      <xs:any namespace="##any" minOccurs="0" maxOccurs="unbounded" processContents="lax"/>
    </xs:sequence>
  </xs:group>
  <xs:element name="Array" type="tns:Array"/>
  <xs:complexType name="Array">
    <xs:group ref="tns:Array" minOccurs="0"/>
    <xs:attributeGroup ref="tns:arrayAttributes"/>
    <xs:attributeGroup ref="tns:commonAttributes"/>
  </xs:complexType>
</xs:schema>
"""


class OfflineSchemas(Transport):
    """The HTTP transport, except that the SOAP encoding schema comes from SOAPENC_SCHEMA."""

    def load(self, url):
        if url.rstrip("/") == SOAPENC.rstrip("/"):
            return SOAPENC_SCHEMA
        return super().load(url)


def strings(value):
    """An ArrayOfString as zeep gives it: a list of str, or None when empty."""
    if value is None:
        return []
    if hasattr(value, "_value_1"):  # an inner array of a list of lists
        value = value._value_1
    return [str(v) for v in (value or [])]


class Checker:
    def __init__(self):
        self.checks = 0
        self.failures = 0

    def expect(self, label, got, expected):
        self.checks += 1
        if got == expected:
            print(f"zeep  ok        {label}: {json.dumps(got)[:160]}")
        else:
            self.failures += 1
            print(f"zeep  MISMATCH  {label}\n      expected {json.dumps(expected)[:2000]}\n      got      {json.dumps(got)[:2000]}")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    wsdl, expected_file = sys.argv[1], sys.argv[2]
    with open(expected_file, encoding="utf-8") as f:
        expected = json.load(f)
    client = zeep.Client(wsdl, transport=OfflineSchemas())
    service = client.service
    array_of_string = client.get_type("{urn:ORTH}ArrayOfString")
    check = Checker()

    def call(label, operation, *args):
        try:
            return getattr(service, operation)(*args)
        except Fault as fault:
            check.checks += 1
            check.failures += 1
            print(f"zeep  MISMATCH  {label}: unexpected fault {fault.code}: {fault.message}")
        return None

    m = expected["GetMatrixInfo"]
    answer = call("GetMatrixInfo()", "GetMatrixInfo")
    if answer is not None:
        got = {"Name": answer["Name"], "NumSpecies": int(answer["NumSpecies"]), "NumGroups": int(answer["NumGroups"])}
        check.expect("GetMatrixInfo()", got, m)

    answer = call("ListIDTypes()", "ListIDTypes")
    if answer is not None:
        got = [{"TypeNr": int(t["TypeNr"]), "TypeName": t["TypeName"]} for t in answer]
        check.expect("ListIDTypes()", got, expected["ListIDTypes"])

    for case in expected["GetEntry"]:
        label = f"GetEntry({case['EntryID']})"
        answer = call(label, "GetEntry", case["EntryID"])
        if answer is not None:
            got = {
                "IDs": strings(answer["IDs"]),
                "Sequence": answer["Sequence"],
                "Organism": answer["Organism"],
                "OrthGroup": int(answer["OrthGroup"]),
            }
            want = {k: case[k] for k in ("IDs", "Sequence", "Organism", "OrthGroup")}
            check.expect(label, got, want)

    for case in expected["ListOrthologs"]:
        label = f"ListOrthologs({case['EntryID']})"
        answer = call(label, "ListOrthologs", case["EntryID"])
        if answer is not None or not case["IDs"]:
            check.expect(label, strings(answer), case["IDs"])

    for case in expected["TestOrthology"]:
        label = f"TestOrthology({case['EntryID1']}, {case['EntryID2']})"
        answer = call(label, "TestOrthology", case["EntryID1"], case["EntryID2"])
        if answer is not None:
            check.expect(label, answer, case["OrthoType"])

    for case in expected["GetOrthGroup"]:
        label = f"GetOrthGroup({case['GroupNr']})"
        answer = call(label, "GetOrthGroup", case["GroupNr"])
        if answer is not None:
            check.expect(label, strings(answer), case["IDs"])

    for case in expected["IdentifySequence"]:
        label = f"IdentifySequence({case['Sequence'][:20]}...)"
        answer = call(label, "IdentifySequence", case["Sequence"])
        if answer is not None or not case["IDs"]:
            check.expect(label, strings(answer), case["IDs"])

    for case in expected["MapIDs"]:
        label = f"MapIDs({case['InIDs']}, {case['OutType']})"
        # A soapenc array argument is built from the WSDL's ArrayOfString type.
        answer = call(label, "MapIDs", array_of_string(case["InIDs"]), case["OutType"])
        if answer is not None or not case["OutIDs"]:
            check.expect(label, [strings(inner) for inner in (answer or [])], case["OutIDs"])

    for case in expected["Faults"]:
        label = f"{case['Operation']}{tuple(case['Args'])} faults"
        args = [array_of_string(a) if isinstance(a, list) else a for a in case["Args"]]
        try:
            answer = getattr(service, case["Operation"])(*args)
            check.expect(label, {"answer": repr(answer)}, {"FaultCode": case["FaultCode"], "FaultString": case["FaultString"]})
        except Fault as fault:
            code = str(fault.code).split(":")[-1].split("}")[-1]
            check.expect(label, {"FaultCode": code, "FaultString": fault.message}, {"FaultCode": case["FaultCode"], "FaultString": case["FaultString"]})

    if check.failures:
        print(f"zeep: {check.failures} of {check.checks} checks FAILED")
        return 1
    print(f"zeep: all {check.checks} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
