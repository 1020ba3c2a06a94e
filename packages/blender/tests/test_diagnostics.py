import os
import re
import unittest

from slmesh_blender import diagnostics

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "diagnostics.md")


class WordingTest(unittest.TestCase):
    def test_wording_matches_the_documented_codes(self):
        # A code added to docs/diagnostics.md later is shown with the CLI's message until it gets
        # wording here (not a failure: the CLI may move faster than the add-on); a worded code
        # must still exist.
        with open(DOCS, encoding="utf-8") as handle:
            codes = re.findall(r"^\| `([a-z-]+)` \|", handle.read(), re.MULTILINE)
        self.assertGreater(len(codes), 20)
        stale = [c for c in diagnostics.CREATOR_TEXT if c not in codes]
        self.assertEqual(stale, [], "codes worded in diagnostics.py that docs/diagnostics.md no longer lists")
        for code in codes:
            finding = diagnostics.word({"severity": "info", "code": code, "message": f"{code} happened"})
            self.assertTrue(finding.text)

    def test_known_code(self):
        f = diagnostics.word({"severity": "warning", "code": "too-many-faces", "message": "Chair: 9 faces", "object": "Chair"})
        self.assertEqual(f.line, "Chair: " + diagnostics.CREATOR_TEXT["too-many-faces"])
        self.assertEqual(f.detail, "Chair: 9 faces")

    def test_unknown_code_keeps_the_cli_message(self):
        f = diagnostics.word({"severity": "odd", "code": "new-thing", "message": "something new"})
        self.assertEqual(f.severity, "info")
        self.assertEqual(f.line, "Something new")

    def test_errors_first(self):
        found = diagnostics.word_all([
            {"severity": "info", "code": "hull-reduced", "message": "i"},
            {"severity": "error", "code": "no-mesh", "message": "e"},
            {"severity": "warning", "code": "not-linkable", "message": "w"},
            "not a diagnostic",
        ])
        self.assertEqual([f.severity for f in found], ["error", "warning", "info"])

    def test_group_merges_a_note_on_every_object(self):
        raw = [{"severity": "info", "code": "physics-as-hulls", "message": f"{n}: ...", "object": n} for n in ("Seat", "Back", "Leg", "Arm")]
        raw.append({"severity": "warning", "code": "not-linkable", "message": "not linkable"})
        groups = diagnostics.group(diagnostics.word_all(raw))
        self.assertEqual([g.code for g in groups], ["not-linkable", "physics-as-hulls"])
        self.assertEqual(groups[1].objects, ("Seat", "Back", "Leg", "Arm"))
        self.assertTrue(groups[1].line.startswith("Seat, Back and 2 more: "))
        self.assertEqual(groups[0].line, diagnostics.CREATOR_TEXT["not-linkable"])


if __name__ == "__main__":
    unittest.main()
