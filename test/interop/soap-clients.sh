#!/usr/bin/env bash
# Interoperability of the SOAP interface with two independent clients that read the served
# WSDL: Python zeep (test/interop/zeep_client.py) and Perl SOAP::Lite
# (test/interop/soaplite_client.pl). Both call the eight operations and compare every answer
# with the expected answers of a JSON file (the caller computes them, e.g. over REST).
#
# usage: test/interop/soap-clients.sh RELEASE_URL EXPECTED_JSON
#   RELEASE_URL    the server root or a named release (http://host, http://host/release/NAME);
#                  a URL ending in /soap or /soap?wsdl is taken as is
#   EXPECTED_JSON  {"GetMatrixInfo": {"Name", "NumSpecies", "NumGroups"},
#                   "ListIDTypes": [{"TypeNr", "TypeName"}],
#                   "GetEntry": [{"EntryID", "IDs", "Sequence", "Organism", "OrthGroup"}],
#                   "ListOrthologs": [{"EntryID", "IDs"}],
#                   "TestOrthology": [{"EntryID1", "EntryID2", "OrthoType"}],
#                   "GetOrthGroup": [{"GroupNr", "IDs"}],
#                   "IdentifySequence": [{"Sequence", "IDs"}],
#                   "MapIDs": [{"InIDs", "OutType", "OutIDs"}],
#                   "Faults": [{"Operation", "Args", "FaultCode", "FaultString"}]}
#
# Both clients run offline: they may reach loopback hosts only (anything else is refused and
# fails the run) and hold no schema of their own, so everything the WSDL imports (the SOAP
# encoding schema) must be served by the service; each checks that it was.
#
# Prints every check; exits 0 when both clients got every expected answer, 1 on any
# mismatch, 2 when a client is missing or the arguments are wrong.
# Needs Debian's python3-zeep and libsoap-lite-perl. PYTHON selects the interpreter that has
# zeep (default /usr/bin/python3, which sees Debian's dist-packages, else python3).
set -uo pipefail

if [ $# -ne 2 ]; then
  sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
url=${1%/}
expected=$2
[ -r "$expected" ] || { echo "cannot read $expected" >&2; exit 2; }
url=${url%\?wsdl}
url=${url%/soap}
wsdl="$url/soap?wsdl"

python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
if ! "$python" -c 'import zeep' 2>/dev/null; then
  echo "$python cannot import zeep (apt-get install python3-zeep)" >&2
  exit 2
fi
if ! perl -MSOAP::Lite -e1 2>/dev/null; then
  echo "perl cannot load SOAP::Lite (apt-get install libsoap-lite-perl)" >&2
  exit 2
fi

echo "== WSDL $wsdl"
status=0
echo "== Python zeep $("$python" -c 'import zeep; print(zeep.__version__)')"
"$python" "$here/zeep_client.py" "$wsdl" "$expected"
code=$?
[ $code -eq 0 ] || status=$(( code > status ? code : status ))
echo "== Perl SOAP::Lite $(perl -MSOAP::Lite -e 'print $SOAP::Lite::VERSION')"
perl "$here/soaplite_client.pl" "$wsdl" "$expected"
code=$?
[ $code -eq 0 ] || status=$(( code > status ? code : status ))
if [ $status -eq 0 ]; then echo "== all SOAP clients agree with the expected answers"; else echo "== SOAP client checks FAILED"; fi
exit $status
