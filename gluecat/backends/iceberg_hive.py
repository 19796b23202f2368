"""pyiceberg's Hive catalog, made to work with Hive 4.0 too.

pyiceberg 0.12's HiveCatalog calls `get_table` and `get_table_objects_by_name`, which
Hive 4.0 no longer serves (apache/iceberg-python#1222); Hive 2.3 and later serve their
`_req` forms, which this client answers them with. Commits keep pyiceberg's HMS locks.
"""

from __future__ import annotations

from typing import Any

from hive_metastore.ThriftHiveMetastore import Client
from hive_metastore.ttypes import GetTableRequest, GetTablesRequest
from pyiceberg.catalog import URI
from pyiceberg.catalog.hive import HIVE2_COMPATIBLE, HiveCatalog, _HiveClient
from thrift.protocol import TBinaryProtocol


class _RequestClient(Client):  # type: ignore[misc]
    def get_table(self, dbname: str, tbl_name: str) -> Any:
        return self.get_table_req(GetTableRequest(dbName=dbname, tblName=tbl_name)).table

    def get_table_objects_by_name(self, dbname: str, tbl_names: list[str]) -> Any:
        return self.get_table_objects_by_name_req(GetTablesRequest(dbName=dbname, tblNames=tbl_names)).tables


class _RequestHiveClient(_HiveClient):
    def _client(self) -> Client:
        client = _RequestClient(TBinaryProtocol.TBinaryProtocol(self._transport))
        if self._ugi:
            client.set_ugi(*self._ugi)
        return client


class MetastoreIcebergCatalog(HiveCatalog):
    @staticmethod
    def _create_hive_client(properties: dict[str, str]) -> _HiveClient:
        return _RequestHiveClient(properties[URI], properties.get("ugi"))


def hive_catalog(uri: str, version: str | None, properties: dict[str, str]) -> HiveCatalog:
    # Hive 2.3 knows no `timestamp with local time zone`: pyiceberg writes plain timestamps for it.
    compatible = {HIVE2_COMPATIBLE: "true"} if version in (None, "2.3") else {}
    return MetastoreIcebergCatalog("gluecat", **{**properties, URI: uri, **compatible})
