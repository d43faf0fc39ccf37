import pytest

from tests.serve.helpers import address, start_server


@pytest.fixture
def served(tmp_path):
    """A running server (records in ``tmp_path/records``): ``(server, base address)``."""
    server = start_server(tmp_path / "records", poll_seconds=2.0)
    yield server, address(server)
    server.shutdown_tables()
