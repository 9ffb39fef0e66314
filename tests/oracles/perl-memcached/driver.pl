# Drives a real Perl memcached client against the loopback stand-ins (standin.py). Part of
# tests/oracles/perl-memcached/ (see README.md). Run by live.py only.
#
#   perl driver.pl JOB
#
# JOB (text lines): `C fast <ketama_points>` or `C cm`, then `S <address> <weight>` per server
# in order, then `K <hex of the key's bytes>` per key. Builds
#   fast: Cache::Memcached::Fast->new({servers => [{address => A, weight => W}, ...],
#         ketama_points => P, connect_timeout => 5, io_timeout => 5})
#   cm:   Cache::Memcached->new({servers => [[A, W], ...], connect_timeout => 5,
#         select_timeout => 5, cb_connect_fail => counter}); a lone server is given as the
#         plain string A (1.30 dies on a lone [A, W]: its single-server path treats the entry
#         as an address string)
# then calls set(key, <key index>) for every key, the key as a byte string. Prints one line
# per key: 1 (set returned true) or 0, then `connect_failures <n>` (cm only, else 0).
use strict;
use warnings;

my ($path) = @ARGV;
open(my $fh, '<', $path) or die "open $path: $!";
my ($kind, $points, @servers, @keys);
while (my $line = <$fh>) {
    chomp $line;
    my ($tag, @f) = split / /, $line, -1;
    if ($tag eq 'C') { ($kind, $points) = @f; }
    elsif ($tag eq 'S') { push @servers, [$f[0], $f[1]]; }
    elsif ($tag eq 'K') { push @keys, pack('H*', $f[0] // ''); }
    else { die "bad line $line"; }
}
close $fh;

my $fails = 0;
my $client;
if ($kind eq 'fast') {
    require Cache::Memcached::Fast;
    $Cache::Memcached::Fast::VERSION eq '0.28' or die "expected Cache::Memcached::Fast 0.28, got $Cache::Memcached::Fast::VERSION";
    $client = Cache::Memcached::Fast->new({
        servers => [map { { address => $_->[0], weight => $_->[1] } } @servers],
        ketama_points => $points, connect_timeout => 5, io_timeout => 5,
    });
} elsif ($kind eq 'cm') {
    require Cache::Memcached;
    $Cache::Memcached::VERSION eq '1.30' or die "expected Cache::Memcached 1.30, got $Cache::Memcached::VERSION";
    my $list = @servers == 1 ? [$servers[0][0]] : [map { [$_->[0], $_->[1]] } @servers];
    $client = Cache::Memcached->new({
        servers => $list, connect_timeout => 5, select_timeout => 5,
        cb_connect_fail => sub { $fails++ },
    });
} else {
    die "unknown client $kind";
}
$| = 1;
for my $i (0 .. $#keys) {
    my $ok = $client->set($keys[$i], "$i");
    print $ok ? "1\n" : "0\n";
}
print "connect_failures $fails\n";
