"""The integer data of each memref mlir-runner's printMemref* printed, in
order."""
import re


def memrefs(text):
    out = []
    for chunk in text.split("Unranked Memref")[1:]:
        data = chunk[chunk.index("data =") + len("data ="):]
        out.append([int(t) for t in re.findall(r"-?\d+", data)])
    return out
