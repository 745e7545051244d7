"""The sample notebook runs (its code cells, in order, as a kernel would) and reproduces the
BERT-512 group of MOST's Fig. 8 as `spillway-cli reproduce most` wrote it."""
import json
import os
import shutil

import pandas

from conftest import SOURCE_DIR

NOTEBOOK = SOURCE_DIR / "samples" / "notebooks" / "most-fig8-ssd-bandwidth.ipynb"


def run_notebook(path, cli_path, monkeypatch):
    notebook = json.loads(path.read_text())
    assert notebook["nbformat"] == 4
    monkeypatch.chdir(path.parent)  # the notebook reads ../../docs as it would in Jupyter
    monkeypatch.setenv("SPILLWAY_CLI", cli_path)
    namespace = {"__name__": "__main__"}
    for number, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name} cell {number}", "exec"), namespace)
    return namespace


def test_the_notebook_reproduces_the_published_group(cli, monkeypatch):
    namespace = run_notebook(NOTEBOOK, cli.path, monkeypatch)
    speedup = namespace["speedup"]
    published = pandas.read_csv(SOURCE_DIR / "docs" / "reproduce" / "most" / "fig8.csv", index_col=0)
    for bandwidth in namespace["BANDWIDTHS"]:
        row = published.loc[f"BERT-512 {bandwidth}"]
        for policy, column in [("deepum", "DeepUM"), ("uvm", "UVM"), ("g10", "G10"), ("most", "MOST")]:
            assert round(speedup.loc[bandwidth, policy], 2) == row[column], (bandwidth, policy)
    assert os.path.isdir(namespace["workdir"])
    shutil.rmtree(namespace["workdir"])  # the notebook leaves its generated profile for the reader
