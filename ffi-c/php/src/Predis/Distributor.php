<?php

declare(strict_types=1);

namespace Ketama\Predis;

use Ketama\KetamaException;
use Ketama\Ring;
use Predis\Cluster\Distributor\DistributorInterface;
use Predis\Cluster\Distributor\EmptyRingException;
use Predis\Cluster\Hash\HashGeneratorInterface;
use Predis\Connection\NodeConnectionInterface;

/**
 * A Predis 1.1 distributor that places keys the way any profile's client does (Jedis,
 * redis-rb, go-redis, libketama, twemproxy, ...), so a PHP application on Predis shares a
 * client-sharded Redis fleet with programs written against another client:
 *
 *     use Ketama\Predis\{Distributor, Strategy};
 *     use Predis\Connection\Aggregate\PredisCluster;
 *
 *     $redis = new Predis\Client(['tcp://10.0.1.1:6379', 'tcp://10.0.1.2:6379?weight=2'], [
 *         'cluster' => new PredisCluster(new Strategy(new Distributor('libketama'))),
 *     ]);
 *     $redis->set('user:1', 'Ada');   // on the server the libketama profile names
 *
 * A node's label is `(string) $node`, which for a Predis connection is its `host:port` (its
 * path for a UNIX socket): what Predis's own rings hash. Its weight is the connection's
 * `weight` parameter (an int, or a string of digits as a URI query gives it), or
 * `$defaultWeight` when it has none; its name the connection's `alias` parameter, if any (for
 * profiles that hash a shard name). Nodes are placed in the order Predis adds them (the order
 * of the connection list).
 *
 * Hash tags: with {@see Strategy} every key reaches the profile whole, so the profile's own
 * client's rule applies (or none); with Predis's `PredisStrategy`, Predis's rule runs first
 * and the profile sees only the text of a key's first non-empty `{...}`.
 *
 * Errors: a node the profile cannot place (a duplicate label, a weight the profile refuses)
 * is a KetamaException from `add()`, so from `new Predis\Client`; a key the profile's client
 * refuses is a KetamaException (KEY_REJECTED) from the command; an empty ring is Predis's
 * EmptyRingException, as with Predis's own rings. Predis has no failover, and this adds
 * none: a server that fails is Predis's connection error.
 */
final class Distributor implements DistributorInterface, HashGeneratorInterface
{
    private Ring $ring;
    /** @var array<string, mixed> the nodes by label */
    private array $nodes = [];
    private int $defaultWeight;

    /**
     * @param string $profile our profile name (libketama, php-memcached, twemproxy, ...)
     * @param ?string $hash key hash name, null for the profile's default
     * @param array{hash_tag?: ?string, prefix_key?: ?string, hash_with_prefix?: bool} $options
     *        placement options, as for Ketama\Ring
     * @param int $defaultWeight the weight of a node without a `weight` parameter (Predis's
     *        own rings count an absent or 0 weight as 100: give 100 to mirror them with a
     *        weighted profile when only some connections carry a weight)
     * @throws KetamaException UNKNOWN_PROFILE, UNKNOWN_HASH, BAD_OPTION
     */
    public function __construct(string $profile, ?string $hash = null, array $options = [], int $defaultWeight = 1)
    {
        $this->ring = new Ring([], $profile, $hash, $options);
        $this->defaultWeight = $defaultWeight;
    }

    /**
     * Adds a node at the end of the server order.
     *
     * @param mixed $node a Predis connection (any object or string whose string form is a label)
     * @param mixed $weight the node's `weight` parameter: null, an int or a string of digits
     * @throws KetamaException BAD_LABEL, BAD_WEIGHT, DUPLICATE_SERVER, UNSUPPORTED
     */
    public function add($node, $weight = null): void
    {
        $label = (string) $node;
        if (is_string($weight) && $weight !== '' && ctype_digit($weight) && strlen($weight) <= 10) {
            $weight = (int) $weight;
        } elseif ($weight === null) {
            $weight = $this->defaultWeight;
        }
        $name = null;
        if ($node instanceof NodeConnectionInterface && isset($node->getParameters()->alias)) {
            $name = (string) $node->getParameters()->alias;
        }
        $this->ring->add($label, $weight, $name);
        $this->nodes[$label] = $node;
    }

    /**
     * Removes a node (the same object that was added; nothing happens for another).
     *
     * @param mixed $node
     */
    public function remove($node): void
    {
        foreach ($this->nodes as $label => $known) {
            if ($known === $node) {
                $this->ring->remove((string) $label);
                unset($this->nodes[$label]);
                return;
            }
        }
    }

    /**
     * The "hash" Predis hands to getSlot(): the key itself, which the profile hashes.
     *
     * @param mixed $value
     */
    public function hash($value): string
    {
        return (string) $value;
    }

    /**
     * The slot of a key: the label of the server the profile's client names.
     *
     * @param mixed $hash a key (see hash())
     * @throws EmptyRingException without nodes
     * @throws KetamaException KEY_REJECTED for a key the profile's client refuses
     */
    public function getSlot($hash): string
    {
        try {
            return $this->ring->get((string) $hash);
        } catch (KetamaException $e) {
            if ($e->getCode() === KetamaException::EMPTY_RING) {
                throw new EmptyRingException('Cannot initialize an empty hashring.');
            }
            throw $e;
        }
    }

    /**
     * The node of a slot (a label), null for one that is not on the ring.
     *
     * @param mixed $slot
     * @return mixed
     */
    public function getBySlot($slot)
    {
        return $this->nodes[(string) $slot] ?? null;
    }

    /**
     * The node of a key (see hash()).
     *
     * @param mixed $hash
     * @return mixed
     */
    public function getByHash($hash)
    {
        return $this->nodes[$this->getSlot($hash)];
    }

    /**
     * The node a key goes to.
     *
     * @param string $value
     * @return mixed
     */
    public function get($value)
    {
        return $this->nodes[$this->getSlot($value)];
    }

    /** This distributor: it is its own hash generator (see hash()). */
    public function getHashGenerator(): HashGeneratorInterface
    {
        return $this;
    }

    /** The ring placing the keys (its labels are the nodes' labels). */
    public function getRing(): Ring
    {
        return $this->ring;
    }
}
