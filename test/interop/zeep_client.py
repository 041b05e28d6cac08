#!/usr/bin/env python3
"""Drives the eight SOAP operations with Python zeep from the served WSDL, and compares
every answer with the expected answers of a JSON file (see soap-clients.sh). Runs offline:
its transport reaches loopback hosts only and it holds no schema of its own, so the SOAP
encoding schema the WSDL imports must come from the service (checked, with what was fetched).

usage: zeep_client.py WSDL_URL EXPECTED_JSON
Exit status: 0 all answers as expected, 1 a mismatch, 2 a usage or setup error.
"""
import ipaddress
import json
import sys
from urllib.parse import urlsplit

try:
    import zeep
    from zeep.exceptions import Fault
    from zeep.transports import Transport
    import requests
    from requests.adapters import HTTPAdapter
except ImportError as error:  # pragma: no cover
    print(f"zeep: cannot import zeep ({error})", file=sys.stderr)
    sys.exit(2)

SOAPENC = "http://schemas.xmlsoap.org/soap/encoding/"


class LoopbackOnly(HTTPAdapter):
    """Sends requests to loopback hosts only, as on a machine that reaches nothing but the
    service: any other host (schemas.xmlsoap.org among them) is refused, and every URL asked
    for is recorded. zeep is given no schema of its own: whatever the WSDL builds on must come
    from the service."""

    def __init__(self):
        super().__init__()
        self.fetched = []
        self.refused = []

    def send(self, request, **kwargs):
        host = urlsplit(request.url).hostname or ""
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            self.refused.append(request.url)
            print(f"zeep  REFUSED   {request.method} {request.url} (not a loopback host)")
            raise requests.exceptions.ConnectionError(f"offline: refusing {request.url}")
        self.fetched.append((request.method, request.url))
        return super().send(request, **kwargs)


def offline_transport():
    """zeep's HTTP transport on a session that reaches loopback hosts only and ignores proxies."""
    adapter = LoopbackOnly()
    session = requests.Session()
    session.trust_env = False
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return Transport(session=session), adapter


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
    transport, network = offline_transport()
    check = Checker()
    try:
        client = zeep.Client(wsdl, transport=transport)
    except Exception as error:  # the WSDL or a schema it imports could not be read offline
        print(f"zeep  MISMATCH  reading the WSDL offline: {type(error).__name__}: {error}")
        print("zeep: 1 of 1 checks FAILED")
        return 1
    for method, url in network.fetched:
        print(f"zeep  fetched   {method} {url}")
    # The SOAP encoding schema came from the service, beside the WSDL, and nothing from elsewhere.
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(wsdl))
    soap_base = wsdl.split("?")[0].rstrip("/")
    soap_base = soap_base[: -len("/soap")] if soap_base.endswith("/soap") else soap_base
    encoding = [url for _, url in network.fetched if url == f"{soap_base}/soap/encoding/"]
    check.expect(
        "SOAP encoding schema read from the service",
        {"from_service": len(encoding) == 1, "refused": network.refused, "elsewhere": [u for _, u in network.fetched if not u.startswith(origin + "/")]},
        {"from_service": True, "refused": [], "elsewhere": []},
    )
    service = client.service
    array_of_string = client.get_type("{urn:ORTH}ArrayOfString")

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
