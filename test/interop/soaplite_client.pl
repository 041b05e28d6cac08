#!/usr/bin/env perl
# Drives the eight SOAP operations with Perl SOAP::Lite from the served WSDL (a service stub
# generated from it), and compares every answer with the expected answers of a JSON file
# (see soap-clients.sh).
#
# usage: soaplite_client.pl WSDL_URL EXPECTED_JSON
# Exit status: 0 all answers as expected, 1 a mismatch, 2 a usage or setup error.
use strict;
use warnings;
use JSON::PP ();

BEGIN {
    eval { require SOAP::Lite; 1 } or do { print STDERR "SOAP::Lite: cannot load SOAP::Lite ($@)\n"; exit 2 };
}

# Offline, as on a machine that reaches nothing but the service: every HTTP request of
# SOAP::Lite (the WSDL, anything it imports, the calls) goes through LWP::UserAgent, which is
# made to refuse any host but a loopback one and to record what it was asked for.
require LWP::UserAgent;
require HTTP::Response;
my (@fetched, @refused);
{
    no warnings 'redefine';
    my $send = \&LWP::UserAgent::send_request;
    *LWP::UserAgent::send_request = sub {
        my ($ua, $request) = @_;
        my $url = $request->uri->as_string;
        my $host = eval { $request->uri->host } // '';
        if ($host =~ /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/) {
            push @fetched, $request->method . " $url";
            return $send->(@_);
        }
        push @refused, $url;
        print "perl  REFUSED   ", $request->method, " $url (not a loopback host)\n";
        return HTTP::Response->new(500, "offline: refusing $url");
    };
}

# The stub generated from a WSDL serialises a part of a WSDL-defined type through
# `as_{TypeName}`; SOAP::Lite knows none for the WSDL's own ArrayOfString (it would send
# xsi:nil), so MapIDs' InIDs gets one: a SOAP-encoded array of xsd:string items.
sub SOAP::Serializer::as_ArrayOfString {
    my ($self, $value, $name, $type, $attr) = @_;
    my @items = map { SOAP::Data->name(item => $_)->type('string') } @$value;
    return [$name, $attr, \SOAP::Data->value(@items)];
}

@ARGV == 2 or do { print STDERR "usage: $0 WSDL_URL EXPECTED_JSON\n"; exit 2 };
my ($wsdl, $expected_file) = @ARGV;
open my $fh, '<:raw', $expected_file or do { print STDERR "$expected_file: $!\n"; exit 2 };
my $expected = JSON::PP->new->utf8->decode(do { local $/; <$fh> });
close $fh;

my $json = JSON::PP->new->canonical->allow_nonref;
my ($checks, $failures) = (0, 0);

sub expect {
    my ($label, $got, $want) = @_;
    $checks++;
    my ($g, $w) = ($json->encode($got), $json->encode($want));
    if ($g eq $w) {
        print "perl  ok        $label: ", substr($g, 0, 160), "\n";
    } else {
        $failures++;
        print "perl  MISMATCH  $label\n      expected ", substr($w, 0, 2000), "\n      got      ", substr($g, 0, 2000), "\n";
    }
}

my $service = SOAP::Lite->service($wsdl);
# Answers as SOAP::SOM objects, so that faults can be told from values.
$service->want_som(1);

sub call {
    my ($label, $operation, @args) = @_;
    my $som = $service->$operation(@args);
    if (!ref $som || !$som->isa('SOAP::SOM')) {
        $checks++; $failures++;
        print "perl  MISMATCH  $label: no SOAP answer (", ($service->transport->status // '?'), ")\n";
        return;
    }
    if ($som->fault) {
        $checks++; $failures++;
        print "perl  MISMATCH  $label: unexpected fault ", $som->faultcode, ": ", $som->faultstring, "\n";
        return;
    }
    return $som;
}

# Values as JSON compares them: strings as strings, xsd:int as numbers, arrays never undef.
sub strings { my $v = shift; return [map { "$_" } @{ $v // [] }] }
sub int_of { my $v = shift; return 0 + $v }

if (my $som = call('GetMatrixInfo()', 'GetMatrixInfo')) {
    my ($name, $species, $groups) = $som->paramsall;
    expect('GetMatrixInfo()', { Name => "$name", NumSpecies => int_of($species), NumGroups => int_of($groups) }, $expected->{GetMatrixInfo});
}

if (my $som = call('ListIDTypes()', 'ListIDTypes')) {
    my $types = [map { { TypeNr => int_of($_->{TypeNr}), TypeName => "$_->{TypeName}" } } @{ $som->result // [] }];
    expect('ListIDTypes()', $types, $expected->{ListIDTypes});
}

for my $case (@{ $expected->{GetEntry} }) {
    my $label = "GetEntry($case->{EntryID})";
    my $som = call($label, 'GetEntry', $case->{EntryID}) or next;
    my ($ids, $sequence, $organism, $group) = $som->paramsall;
    expect($label,
        { IDs => strings($ids), Sequence => "$sequence", Organism => "$organism", OrthGroup => int_of($group) },
        { map { ($_ => $case->{$_}) } qw(IDs Sequence Organism OrthGroup) });
}

for my $case (@{ $expected->{ListOrthologs} }) {
    my $label = "ListOrthologs($case->{EntryID})";
    my $som = call($label, 'ListOrthologs', $case->{EntryID}) or next;
    expect($label, strings($som->result), $case->{IDs});
}

for my $case (@{ $expected->{TestOrthology} }) {
    my $label = "TestOrthology($case->{EntryID1}, $case->{EntryID2})";
    my $som = call($label, 'TestOrthology', $case->{EntryID1}, $case->{EntryID2}) or next;
    expect($label, '' . $som->result, $case->{OrthoType});
}

for my $case (@{ $expected->{GetOrthGroup} }) {
    my $label = "GetOrthGroup($case->{GroupNr})";
    my $som = call($label, 'GetOrthGroup', $case->{GroupNr}) or next;
    expect($label, strings($som->result), $case->{IDs});
}

for my $case (@{ $expected->{IdentifySequence} }) {
    my $label = 'IdentifySequence(' . substr($case->{Sequence}, 0, 20) . '...)';
    my $som = call($label, 'IdentifySequence', $case->{Sequence}) or next;
    expect($label, strings($som->result), $case->{IDs});
}

for my $case (@{ $expected->{MapIDs} }) {
    my $label = 'MapIDs([' . join(', ', @{ $case->{InIDs} }) . "], $case->{OutType})";
    my $som = call($label, 'MapIDs', $case->{InIDs}, $case->{OutType}) or next;
    expect($label, [map { strings($_) } @{ $som->result // [] }], $case->{OutIDs});
}

for my $case (@{ $expected->{Faults} }) {
    my $label = "$case->{Operation}(" . join(', ', @{ $case->{Args} }) . ') faults';
    my $operation = $case->{Operation};
    my $som = $service->$operation(@{ $case->{Args} });
    my $want = { FaultCode => $case->{FaultCode}, FaultString => $case->{FaultString} };
    if (ref $som && $som->isa('SOAP::SOM') && $som->fault) {
        (my $code = $som->faultcode) =~ s/^.*://;
        expect($label, { FaultCode => $code, FaultString => $som->faultstring }, $want);
    } else {
        expect($label, { answer => ref $som ? 'a SOAP answer without fault' : 'no SOAP answer' }, $want);
    }
}

# Everything SOAP::Lite read came from the service's own origin, and nothing was refused.
{
    my ($origin) = $wsdl =~ m{^(https?://[^/?#]+)};
    my %seen;
    print "perl  fetched   $_\n" for grep { !$seen{$_}++ } @fetched;
    expect('nothing read from outside the service',
        { refused => \@refused, elsewhere => [grep { !m{^\S+ \Q$origin\E/} } @fetched] },
        { refused => [], elsewhere => [] });
}

if ($failures) {
    print "SOAP::Lite: $failures of $checks checks FAILED\n";
    exit 1;
}
print "SOAP::Lite: all $checks checks passed\n";
exit 0;
