#!/usr/bin/env python3
"""Independent reader of a Second Life mesh asset (.llmesh), Python 3 standard library only.

Written from the format description (spec/second-life.md section 3, the viewer's
LLSDBinaryParser::doParse and LLModel::writeModel), not from the TypeScript decoder, so the
tests can check the TypeScript encoder and decoder against a second reading of the same bytes.

Usage: python3 read_llmesh.py FILE   -> prints one JSON object:
  {"header_length": n,
   "header": {block: {"offset": o, "size": s}, ...},
   "submodel_id": n | null,
   "lods": {block: [{"no_geometry": bool, "vertices": n, "triangles": n}, ...], ...},
   "physics_convex": {"hull_list": [n, ...] | null, "positions": n | null,
                      "bounding_verts": n | null} | null}
Exits 1 with a message on stderr if the file is not a mesh asset.
"""
import json
import struct
import sys
import zlib

BLOCKS = ["skin", "physics_convex", "lowest_lod", "low_lod", "medium_lod", "high_lod", "physics_mesh"]
LOD_BLOCKS = ["lowest_lod", "low_lod", "medium_lod", "high_lod", "physics_mesh"]


class Undefined:
    pass


UNDEFINED = Undefined()


class Parser:
    def __init__(self, data, pos=0):
        self.data = data
        self.pos = pos

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("truncated at byte %d" % self.pos)
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def u32(self):
        return struct.unpack(">I", self.take(4))[0]

    def value(self, depth=0):
        if depth > 64:
            raise ValueError("too deep")
        t = self.take(1)
        if t == b"!":
            return UNDEFINED
        if t == b"1":
            return True
        if t == b"0":
            return False
        if t == b"i":
            return struct.unpack(">i", self.take(4))[0]
        if t == b"r":
            return struct.unpack(">d", self.take(8))[0]
        if t == b"d":
            return struct.unpack("<d", self.take(8))[0]
        if t == b"u":
            return self.take(16).hex()
        if t in (b"s", b"l"):
            return self.take(self.u32()).decode("utf-8", "replace")
        if t == b"b":
            return bytes(self.take(self.u32()))
        if t == b"[":
            n = self.u32()
            items = [self.value(depth + 1) for _ in range(n)]
            if self.take(1) != b"]":
                raise ValueError("array not closed")
            return items
        if t == b"{":
            n = self.u32()
            items = {}
            for _ in range(n):
                if self.take(1) != b"k":
                    raise ValueError("expected key")
                key = self.take(self.u32()).decode("utf-8", "replace")
                items.setdefault(key, self.value(depth + 1))
            if self.take(1) != b"}":
                raise ValueError("map not closed")
            return items
        raise ValueError("unknown type %r at byte %d" % (t, self.pos - 1))


def lod_summary(block):
    faces = []
    for face in block:
        if "NoGeometry" in face:
            faces.append({"no_geometry": True, "vertices": 0, "triangles": 0})
        else:
            faces.append({
                "no_geometry": False,
                "vertices": len(face["Position"]) // 6,
                "triangles": len(face["TriangleList"]) // 6,
            })
    return faces


def convex_summary(block):
    if block is UNDEFINED:
        return {"hull_list": None, "positions": None, "bounding_verts": None}
    hull_list = None
    if "HullList" in block:
        hull_list = [c if c != 0 else 256 for c in block["HullList"]]
    positions = len(block["Positions"]) // 6 if "Positions" in block else None
    bounding = len(block["BoundingVerts"]) // 6 if "BoundingVerts" in block else None
    return {"hull_list": hull_list, "positions": positions, "bounding_verts": bounding}


def main(path):
    with open(path, "rb") as fh:
        data = fh.read()
    parser = Parser(data)
    header = parser.value()
    header_length = parser.pos
    out = {
        "header_length": header_length,
        "header": {},
        "submodel_id": header.get("submodel_id"),
        "lods": {},
        "physics_convex": None,
    }
    for name in BLOCKS:
        if name not in header:
            continue
        offset = header[name]["offset"]
        size = header[name]["size"]
        out["header"][name] = {"offset": offset, "size": size}
        start = header_length + offset
        if start + size > len(data):
            raise ValueError("block %s past end of file" % name)
        block = Parser(zlib.decompress(data[start:start + size])).value()
        if name in LOD_BLOCKS:
            out["lods"][name] = lod_summary(block)
        elif name == "physics_convex":
            out["physics_convex"] = convex_summary(block)
    json.dump(out, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as exc:  # one line, no traceback
        sys.stderr.write("read_llmesh: %s\n" % exc)
        sys.exit(1)
