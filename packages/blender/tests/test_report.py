import json
import unittest

from slmesh_blender import report
from slmesh_blender.cli import SlmeshError

from .helpers import fixture, fixture_text


class ParseTest(unittest.TestCase):
    def test_accepts_a_real_report(self):
        data = report.parse_report(fixture_text("chair-cost.json"))
        self.assertEqual(data["schemaVersion"], 1)

    def test_rejects_what_is_not_a_report(self):
        for text in ("", "not json", "[]", json.dumps({"schemaVersion": 2, "files": [{}]}), json.dumps({"schemaVersion": 1, "files": []})):
            with self.subTest(text=text), self.assertRaises(SlmeshError):
                report.parse_report(text)


class SummaryTest(unittest.TestCase):
    def test_chair(self):
        s = report.summarize(fixture("chair-cost.json"))
        self.assertAlmostEqual(s.land_impact, 20.355000600218773)
        self.assertEqual(s.land_impact_rounded, 20)
        self.assertAlmostEqual(s.download, 20.355000600218773)
        self.assertAlmostEqual(s.physics, 9.84)
        self.assertEqual(s.server, 3)
        self.assertEqual(s.prims, 6)
        self.assertEqual(s.dominant, "download")
        self.assertIn("download weight", s.dominant_text)
        self.assertTrue(s.linkable)
        self.assertTrue(s.linkable_text.startswith("Linkable: 6 parts within 0.7 m"))
        self.assertEqual([o.name for o in s.objects], ["Seat", "Back", "Leg_FL", "Leg_FR", "Leg_BL", "Leg_BR"])
        seat = s.objects[0]
        self.assertEqual(seat.triangles, {"high": 12, "medium": 12, "low": 12, "lowest": 12})
        self.assertEqual(seat.present["medium"], False)
        self.assertAlmostEqual(seat.switch["medium"], 4.198596076604748)
        self.assertEqual(s.findings, [])
        self.assertEqual(report.land_impact_line(s), "Land impact 20.36 (rounds to 20)")

    def test_not_linkable_with_its_reason(self):
        s = report.summarize(fixture("two-cubes-60m-cost.json"))
        self.assertFalse(s.linkable)
        self.assertIn("60.00 m", s.linkable_text)
        self.assertEqual([f.code for f in s.findings], ["not-linkable"])
        self.assertIn("cannot be linked", s.findings[0].text)

    def test_missing_optional_fields_do_not_raise(self):
        s = report.summarize({"schemaVersion": 1, "files": [{"objects": [{"name": "A"}], "linkset": {"landImpact": 2.5}}]})
        self.assertEqual(s.land_impact_rounded, 3)
        self.assertEqual(s.objects[0].triangles["high"], 0)
        self.assertIsNone(s.objects[0].switch["low"])

    def test_key_numbers(self):
        numbers = report.key_numbers(fixture("chair-cost.json"))
        self.assertEqual(numbers["landImpactRounded"], 20)
        self.assertEqual(numbers["objects"][2], ["Leg_FL", [108, 108, 108, 108]])


class FormatTest(unittest.TestCase):
    def test_object_texts(self):
        s = report.summarize(fixture("chair-cost.json"))
        self.assertEqual(report.triangles_text(s.objects[0]), "12 / 12* / 12* / 12*")
        self.assertEqual(report.distances_text(s.objects[0]), "4.2 / 14.1 / 28.2 m")
        never = report.ObjectRow("A", {}, {}, {"medium": 3.0, "low": None, "lowest": None}, 0, 0, 0, 0, "convex-hull", False)
        self.assertEqual(report.distances_text(never), "3.0 m / never / never")

    def test_distances(self):
        self.assertEqual(report.format_distance(4.1986), "4.2 m")
        self.assertEqual(report.format_distance(None), "never")
        self.assertEqual(report.format_distance(float("inf")), "never")
        self.assertEqual(report.format_distance(250.4), "250 m")

    def test_round_half_up(self):
        self.assertEqual(report.round_half_up(2.5), 3)
        self.assertEqual(report.round_half_up(2.4999), 2)

    def test_before_after(self):
        chair = report.summarize(fixture("chair-cost.json"))
        self.assertEqual(report.before_after_line(chair, chair), "Land impact 20.36 -> 20.36 (20 -> 20)")

    def test_wrap(self):
        lines = report.wrap("Land impact is set by the download weight: fewer triangles", 20)
        self.assertTrue(all(len(l) <= 20 for l in lines))
        self.assertEqual(" ".join(lines), "Land impact is set by the download weight: fewer triangles")
        self.assertEqual(report.wrap("", 20), [""])
        self.assertEqual(report.wrap("a-very-long-word-that-does-not-fit", 10), ["a-very-long-word-that-does-not-fit"])


if __name__ == "__main__":
    unittest.main()
