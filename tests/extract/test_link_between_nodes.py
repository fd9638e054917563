"""A link inside the nodes and a network between them, named together: the network is kept (the link
inside a node follows from the device), in both languages; one link alone is read as before."""
import pytest

from agent.extract import extract, extract_answer


@pytest.mark.parametrize("text, want", [
    ("NVLink inside each node, 8x 400G InfiniBand between nodes", "infiniband"),
    ("每台 8 卡 NVLink，節點之間 4x 200G InfiniBand", "infiniband"),
    ("2 nodes of 8x H100 SXM with NVLink, and RoCE Ethernet across the nodes", "ethernet"),
    ("兩台 8 卡 H100，機器之間走 InfiniBand，機內 NVLink", "infiniband"),
    ("8x H100 with NVLink", "nvlink"),
    ("4x A100 PCIe with NVLink bridges", "nvlink"),
    ("2 nodes of 8x H100 connected with InfiniBand", "infiniband"),
    ("NVLink and InfiniBand both available in the one node", "nvlink"),
])
def test_the_network_between_nodes_wins_when_both_are_named(text, want):
    assert extract(text).values.get("interconnect") == want


def test_a_reply_naming_both_links_keeps_the_network():
    got = extract_answer("NVLink inside each node, 8x 400G InfiniBand between nodes", ["interconnect"])
    assert got.values["interconnect"] == "infiniband"
