<?php

declare(strict_types=1);

namespace Ketama\Predis;

use Predis\Cluster\ClusterStrategy;
use Predis\Cluster\PredisStrategy;

/**
 * Predis's client-side sharding strategy with the key handed to a {@see Distributor} whole:
 * the profile applies its own client's hash tag rule (Predis's `PredisStrategy` would first
 * cut a key down to its first non-empty `{...}`, which is only right where the profile's
 * client does the same). A multi-key command runs when all its keys go to one server (the
 * strategy's slots, here server labels, are equal), as with Predis's other strategies.
 *
 *     new Predis\Connection\Aggregate\PredisCluster(new Strategy(new Distributor('jedis')))
 */
final class Strategy extends PredisStrategy
{
    public function __construct(Distributor $distributor)
    {
        parent::__construct($distributor);
    }

    /**
     * The slot (server label) of a key, the whole key placed by the profile.
     *
     * @param string $key
     */
    public function getSlotByKey($key): string
    {
        return $this->distributor->getSlot($key);
    }

    /**
     * Whether every key goes to one server.
     *
     * @param array<mixed> $keys
     */
    protected function checkSameSlotForKeys(array $keys)
    {
        return ClusterStrategy::checkSameSlotForKeys($keys);
    }
}
