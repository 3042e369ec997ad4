#!/usr/bin/perl
# A whole publishing session with Debian's XML::Atom::Client (libxml-atom-perl), a real third-party client: root
# listing, feed, create, get, update, get, delete, categories. Prints one tab-separated line per step for the test
# to check, and exits non-zero, saying which step and why, as soon as the client reports a failure.
#
#   ATOM_USERNAME=melody ATOM_PASSWORD=... perl xml-atom-posts.pl http://127.0.0.1:4321/t/atom/weblog
use strict;
use warnings;
use HTTP::Request;
use XML::Atom::Client;
use XML::Atom::Entry;
# XML::Atom::Namespace lives in XML/Atom.pm, which XML::Atom::Client loads.
use XML::LibXML;

my $DC = XML::Atom::Namespace->new(dc => 'http://purl.org/dc/elements/1.1/');
my $CATEGORY_NS = 'http://sixapart.com/atom/category#';

my $root = shift @ARGV or die "usage: ATOM_USERNAME=... ATOM_PASSWORD=... $0 <root-uri>\n";
my $client = XML::Atom::Client->new;
$client->username($ENV{ATOM_USERNAME} // die "ATOM_USERNAME is not set\n");
$client->password($ENV{ATOM_PASSWORD} // die "ATOM_PASSWORD is not set\n");

sub step {
    my ($name, @values) = @_;
    # One line per step: values lose their line breaks (error messages end with one).
    print join("\t", $name, map { my $value = $_ // ''; $value =~ s/\s*\n\s*/ /g; $value =~ s/\s+$//; $value } @values), "\n";
}

sub failed {
    my ($what) = @_;
    print STDERR "XML::Atom::Client failed to $what: ", $client->errstr, "\n";
    exit 1;
}

sub href_of {
    my ($rel, @links) = @_;
    my ($link) = grep { ($_->rel // '') eq $rel } @links;
    return $link ? $link->href : undef;
}

sub describe_entry {
    my ($entry) = @_;
    my $body = $entry->content ? $entry->content->body : '';
    $body =~ s/\s+/ /g;
    return ($entry->title, join(',', $entry->getlist($DC, 'subject')), $body, $entry->issued);
}

# Root listing: the first weblog's addresses.
my $listing = $client->getFeed($root) or failed("read the root listing $root");
my @weblog = $listing->link;
my ($post_uri, $feed_uri, $categories_uri) = map { href_of($_, @weblog) } qw(service.post service.feed service.categories);
step('root', $post_uri, $feed_uri, $categories_uri);

my $feed = $client->getFeed($feed_uri) or failed("read the feed $feed_uri");
my @entries = $feed->entries;
step('feed', $feed->title, scalar @entries, href_of('next', $feed->link));

my $entry = XML::Atom::Entry->new;
$entry->title('Hello from XML::Atom::Client');
$entry->content('<p>First body, <b>bold</b> &amp; ampersand.</p>');
$entry->add($DC, 'subject', 'Music');
my $edit_uri = $client->createEntry($post_uri, $entry) or failed("create an entry at $post_uri");
step('create', $edit_uri);

my $created = $client->getEntry($edit_uri) or failed("read the new entry $edit_uri");
step('get', describe_entry($created));

# Edit what the service sent, as an editor would: links, id and dates travel back unchanged.
$created->title('Hello again (edited)');
$created->content('<p>Edited body.</p>');
$client->updateEntry($edit_uri, $created) or failed("update $edit_uri");
step('update', 'ok');

my $updated = $client->getEntry($edit_uri) or failed("read the updated entry $edit_uri");
step('get', describe_entry($updated));

$client->deleteEntry($edit_uri) or failed("delete $edit_uri");
step('delete', 'ok');
step('gone', $client->getEntry($edit_uri) ? 'still there' : $client->errstr);

# XML::Atom::Client has no call for the CategoryURI: a signed GET through its own request signing.
my $response = $client->make_request(HTTP::Request->new(GET => $categories_uri));
unless ($response->code == 200) {
    print STDERR "GET $categories_uri failed: ", $response->status_line, "\n";
    exit 1;
}
my $categories = XML::LibXML->new(no_network => 1)->parse_string($response->content)->documentElement;
my @names = map { $_->textContent } $categories->getChildrenByTagNameNS('http://purl.org/dc/elements/1.1/', 'subject');
step('categories', ($categories->namespaceURI // '') . ' ' . $categories->localname, join(',', @names));
