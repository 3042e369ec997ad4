#!/usr/bin/perl
# Fetches an Atom 0.3 root listing with Debian's XML::Atom::Client (libxml-atom-perl), a real third-party client,
# and prints each link as: rel <TAB> href <TAB> type <TAB> title. Exits non-zero when the client fails.
#
#   ATOM_USERNAME=melody ATOM_PASSWORD=... perl xml-atom-root.pl http://127.0.0.1:4321/t/atom/weblog
use strict;
use warnings;
use XML::Atom::Client;

# XML::Atom hands out UTF-8 bytes (unless $XML::Atom::ForceUnicode is set), so they are printed as they come.

my $root = shift @ARGV or die "usage: ATOM_USERNAME=... ATOM_PASSWORD=... $0 <root-uri>\n";
my $client = XML::Atom::Client->new;
$client->username($ENV{ATOM_USERNAME} // die "ATOM_USERNAME is not set\n");
$client->password($ENV{ATOM_PASSWORD} // die "ATOM_PASSWORD is not set\n");

my $feed = $client->getFeed($root);
unless ($feed) {
    print STDERR "XML::Atom::Client could not read $root: ", $client->errstr, "\n";
    exit 1;
}
for my $link ($feed->link) {
    print join("\t", map { $_ // '' } $link->rel, $link->href, $link->type, $link->title), "\n";
}
