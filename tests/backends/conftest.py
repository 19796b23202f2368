"""One parametrised `catalog` fixture: every test in tests/backends/ runs against each row of
`tests.backends.catalogs.ROWS` (the local Glue, HMS 2.3.9, HMS 4.0.1, an Iceberg REST catalog; a new
backend adds a row)."""

from __future__ import annotations

import pytest

from tests.backends.catalogs import ROWS, CatalogUnderTest


@pytest.fixture(params=[pytest.param(row, id=row.name, marks=row.marks) for row in ROWS])
def catalog(request: pytest.FixtureRequest) -> CatalogUnderTest:
    """The catalog under test (only the one a test runs against is started)."""
    return request.param.make(request)  # type: ignore[no-any-return]
