"""Django's Redis cache, keeping one redis-py client per connection pool instead of one per call.

Django's RedisCache builds a new `redis.Redis` for every cache operation, and with redis-py 8
building one costs more CPU than the round trip to Redis (it copies some 170 response callbacks).
The game poll makes two cache calls per request, so that was a third of its CPU time. A client is
thread-safe and only wraps the shared pool, so keeping it changes nothing else.
"""

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._clients[index] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
