"""Operators: check, price, export for Second Life, preview, cancel (needs bpy).

Each job operator runs its :mod:`pipeline` job synchronously when executed (scripts,
``blender -b``: ``bpy.ops.slmesh.price()``), and as a modal operator polling ``subprocess.Popen``
from a timer when invoked from the UI, with progress in the status bar and the panel, and Esc to
cancel. Failures are shown in the panel and with ``self.report({'ERROR'}, ...)``, never as a
traceback.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
import traceback
import webbrowser
from typing import Any, Optional

import bpy
from bpy.props import BoolProperty, StringProperty

from . import cli, pipeline
from .bl_settings import cli_config, preferences
from .cli import SlmeshError
from .files import export_path_for, imported_name, normalise_output, slot_of_file, split_slot, strip_duplicate_suffix
from .jobs import Cancelled, PolledJob, Run, run_once, run_sync
from .report import before_after_line, parse_report, summarize

LOD_COLLECTION = "SL LODs"
NO_BROWSER_ENV = "SLMESH_NO_BROWSER"

#: The job running in the UI, if any (one at a time); the panel reads its progress.
_running: dict[str, Any] = {"job": None, "cancel": False, "ended_at": 0.0}


def job_running() -> bool:
    return _running["job"] is not None


def seconds_since_last_job() -> float:
    return time.monotonic() - _running["ended_at"]


# -- what to export -----------------------------------------------------------------------------
def source_objects(context) -> list:
    """The mesh objects to price or export: the selection, or the chosen collection's meshes."""
    settings = context.scene.slmesh
    if settings.source == "COLLECTION":
        if settings.collection is None:
            raise SlmeshError("Choose a collection in the Second Life panel, or price the selection")
        objects = [o for o in settings.collection.all_objects if o.type == "MESH"]
        what = f"collection '{settings.collection.name}'"
    else:
        objects = [o for o in context.selected_objects if o.type == "MESH"]
        what = "selection"
    if not objects:
        raise SlmeshError(f"No mesh objects in the {what}: select the objects to price")
    return objects


def _export_kwargs(path: str) -> dict:
    """Arguments of Blender's glTF exporter that exist in this Blender (3.4 to 4.x)."""
    wanted = {
        "filepath": path,
        "export_format": "GLB",
        "use_selection": True,
        "export_apply": True,
        "export_yup": True,
        "export_animations": False,
        "export_cameras": False,
        "export_lights": False,
        "export_extras": False,
        "export_morph": False,
        "export_skins": False,
        "check_existing": False,
        "will_save_settings": False,
    }
    known = {p.identifier for p in bpy.ops.export_scene.gltf.get_rna_type().properties}
    return {k: v for k, v in wanted.items() if k in known}


def gltf_export(context, objects: list, path: str) -> None:
    """Write ``objects`` (modifiers applied, +Y up) to the GLB ``path`` with Blender's glTF
    exporter. The selection and active object are restored afterwards, whatever happens."""
    view_layer = context.view_layer
    before = [o for o in view_layer.objects if o.select_get()]
    active = view_layer.objects.active
    for obj in objects:
        if obj.mode == "EDIT":
            obj.update_from_editmode()
    try:
        for obj in before:
            obj.select_set(False)
        for obj in objects:
            try:
                obj.select_set(True)
            except RuntimeError:
                pass  # not in this view layer: the exporter cannot see it either
        try:
            result = bpy.ops.export_scene.gltf(**_export_kwargs(path))
        except RuntimeError as error:
            raise SlmeshError(f"Blender's glTF exporter failed: {error_line(error)}") from None
        if "FINISHED" not in result or not os.path.isfile(path):
            raise SlmeshError("Blender's glTF exporter wrote nothing")
    finally:
        for obj in view_layer.objects:
            if obj.select_get():
                obj.select_set(False)
        for obj in before:
            try:
                obj.select_set(True)
            except (RuntimeError, ReferenceError):
                pass
        view_layer.objects.active = active


def error_line(error: BaseException) -> str:
    """The line that says what went wrong in an operator's RuntimeError (which carries the
    failing operator's whole traceback as text)."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    return next((l for l in reversed(lines) if not l.startswith(("Location:", "^", "~"))), "unknown error")


class _numpy_bool_alias:
    """Blender 3.4's glTF importer uses ``np.bool``, removed in NumPy 1.24 (Debian 12 ships
    Blender 3.4 with NumPy 1.24): restore the alias for the duration of an import."""

    def __enter__(self):
        self.added = False
        try:
            import numpy
        except ImportError:
            return self
        if "bool" not in numpy.__dict__:
            numpy.bool = bool  # type: ignore[attr-defined]
            self.added = True
        return self

    def __exit__(self, *exc):
        if self.added:
            import numpy

            del numpy.bool
        return False


def _redraw(context=None) -> None:
    wm = bpy.context.window_manager
    for window in wm.windows:
        for area in window.screen.areas:
            if area.type in {"VIEW_3D", "PROPERTIES"}:
                area.tag_redraw()


# -- the job operator machinery -----------------------------------------------------------------
class _JobOperator:
    """Runs ``make_job``'s job synchronously (execute) or modally (invoke with a window)."""

    _polled: Optional[PolledJob] = None
    _timer = None
    _scene = None
    running_label = "slmesh"

    def make_job(self, context, base: list[str]):  # -> tuple[job, steps]
        raise NotImplementedError

    def on_success(self, context, result) -> None:
        raise NotImplementedError

    # entry points
    def execute(self, context):
        return self._start(context, modal=False)

    def invoke(self, context, event):
        return self._start(context, modal=context.window is not None and not bpy.app.background)

    def _start(self, context, modal: bool):
        settings = context.scene.slmesh
        self._scene = context.scene
        if job_running():
            self.report({"WARNING"}, "slmesh is already running (Esc or Cancel in the panel stops it)")
            return {"CANCELLED"}
        try:
            base = cli.base_argv(cli_config(context))
            job, steps = self.make_job(context, base)
            settings.error = ""
            if not modal:
                settings.status = self.running_label
                try:
                    result = run_sync(job)
                finally:
                    settings.status = ""
                self.on_success(context, result)
                return {"FINISHED"}
            self._polled = PolledJob(job, steps)
            _running.update(job=self._polled, cancel=False)
            self._polled.start()
        except SlmeshError as error:
            return self._fail(context, str(error))
        except Exception as error:  # noqa: BLE001 - shown to the creator as one line
            traceback.print_exc()
            return self._fail(context, f"Unexpected error: {error}")
        if self._polled.done:
            return self._end(context)
        wm = context.window_manager
        self._timer = wm.event_timer_add(0.1, window=context.window)
        wm.modal_handler_add(self)
        wm.progress_begin(0, 100)
        self._show_progress(context)
        return {"RUNNING_MODAL"}

    def modal(self, context, event):
        polled = self._polled
        if polled is None:
            return {"CANCELLED"}
        if (event.type == "ESC" and event.value == "PRESS") or _running["cancel"]:
            polled.cancel()
            return self._end(context)
        if event.type == "TIMER" and polled.poll():
            return self._end(context)
        if event.type == "TIMER":
            self._show_progress(context)
        return {"PASS_THROUGH"}

    def cancel(self, context):  # Blender calls this when the window closes mid-run
        if self._polled is not None:
            self._polled.cancel()
        self._cleanup(context)

    def _show_progress(self, context) -> None:
        polled = self._polled
        if polled is None:
            return
        settings = self._scene.slmesh
        elapsed = time.monotonic() - polled.started_at
        settings.status = f"{polled.label}... {elapsed:.0f} s (Esc to cancel)"
        settings.progress = polled.fraction
        context.window_manager.progress_update(int(100 * polled.fraction))
        if context.workspace is not None:
            context.workspace.status_text_set(f"slmesh: {settings.status}")
        _redraw(context)

    def _cleanup(self, context) -> None:
        wm = context.window_manager
        if self._timer is not None:
            wm.event_timer_remove(self._timer)
            self._timer = None
        wm.progress_end()
        if context.workspace is not None:
            context.workspace.status_text_set(None)
        if self._scene is not None:
            self._scene.slmesh.status = ""
            self._scene.slmesh.progress = 0.0
        _running.update(job=None, cancel=False, ended_at=time.monotonic())
        _redraw(context)

    def _end(self, context):
        polled = self._polled
        self._cleanup(context)
        assert polled is not None
        if isinstance(polled.error, Cancelled):
            self.report({"WARNING"}, "slmesh cancelled")
            return {"CANCELLED"}
        if polled.error is not None:
            if not isinstance(polled.error, SlmeshError):
                traceback.print_exception(type(polled.error), polled.error, polled.error.__traceback__)
                return self._fail(context, f"Unexpected error: {polled.error}")
            return self._fail(context, str(polled.error))
        try:
            self.on_success(context, polled.result)
        except SlmeshError as error:
            return self._fail(context, str(error))
        except Exception as error:  # noqa: BLE001
            traceback.print_exc()
            return self._fail(context, f"Unexpected error: {error}")
        return {"FINISHED"}

    def _fail(self, context, message: str):
        if _running["job"] is not None and _running["job"] is self._polled and self._timer is None:
            _running.update(job=None, cancel=False)  # failed before the modal run began
        scene = self._scene or context.scene
        scene.slmesh.error = message
        scene.slmesh.status = ""
        _redraw(context)
        self.report({"ERROR"}, message)
        return {"CANCELLED"}


# -- operators ----------------------------------------------------------------------------------
class SLMESH_OT_check(bpy.types.Operator):
    """Run `slmesh --version` to check that the add-on can run slmesh"""

    bl_idname = "slmesh.check"
    bl_label = "Check"

    def execute(self, context):
        prefs = preferences(context)
        try:
            base = cli.base_argv(cli_config(context))
            result = run_once(Run(cli.version_argv(base), "slmesh --version", 60.0))
            if result.returncode != 0:
                raise SlmeshError(cli.failure_message("slmesh --version", result.returncode, result.stderr, result.stdout))
        except SlmeshError as error:
            prefs.check_result = str(error)
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        version = cli.last_line(result.stdout)
        prefs.check_result = f"slmesh {version}: {' '.join(base)}"
        self.report({"INFO"}, prefs.check_result)
        return {"FINISHED"}


class SLMESH_OT_price(_JobOperator, bpy.types.Operator):
    """Export the selection (or the chosen collection) to glTF and price it for Second Life with slmesh"""

    bl_idname = "slmesh.price"
    bl_label = "Price for Second Life"
    running_label = "Pricing"

    def make_job(self, context, base):
        objects = source_objects(context)
        lod_factor = context.scene.slmesh.lod_factor
        return pipeline.price_job(base, lambda path: gltf_export(context, objects, path), lod_factor), pipeline.PRICE_STEPS

    def on_success(self, context, result: pipeline.PriceResult) -> None:
        scene = self._scene or context.scene
        scene.slmesh_report = result.report_text
        summary = summarize(result.report)
        self.report({"INFO"}, f"Land impact {summary.land_impact:.2f} (rounds to {summary.land_impact_rounded})")


class SLMESH_OT_export(_JobOperator, bpy.types.Operator):
    """Export the selection with generated LODs and physics as the files the Second Life uploader loads"""

    bl_idname = "slmesh.export"
    bl_label = "Export for Second Life"
    running_label = "Exporting"

    filepath: StringProperty(name="File", subtype="FILE_PATH", description="Output .glb (default: the panel's 'Export to')", options={"SKIP_SAVE"})  # type: ignore[valid-type]
    import_lods: BoolProperty(name="Bring LODs into the scene", options={"SKIP_SAVE"})  # type: ignore[valid-type]

    def make_job(self, context, base):
        settings = context.scene.slmesh
        path = self.filepath or settings.export_path
        if not path and bpy.data.filepath:
            path = export_path_for(bpy.data.filepath, "")
            settings.export_path = path
        if not path:
            raise SlmeshError("Set 'Export to' in the Second Life panel (the .glb to write), or save the .blend first")
        path = normalise_output(bpy.path.abspath(path))
        if not self.properties.is_property_set("import_lods"):
            self.import_lods = settings.import_lods
        objects = source_objects(context)
        self._names = [o.name for o in objects]
        self._destination = path
        options = cli.OptimizeOptions(
            lod_factor=settings.lod_factor,
            physics=settings.physics,
            target_li=settings.target_li,
            max_error_px=settings.max_error_px,
            keep_lods=settings.keep_lods,
            keep_high=settings.keep_high,
            keep_precision=settings.keep_precision,
            merge_objects=settings.merge_objects,
        )
        job = pipeline.export_job(base, lambda p: gltf_export(context, objects, p), path, options)
        return job, pipeline.EXPORT_STEPS

    def on_success(self, context, result: pipeline.ExportResult) -> None:
        scene = self._scene or context.scene
        if self.import_lods:
            try:
                import_lods(context, result.files, self._destination, self._names)
            except RuntimeError as error:  # the files are written: a failed import is a warning
                result.warnings.append(f"Files written, but bringing the LODs into the scene failed: {error_line(error)}")
        before, after = summarize(result.before), summarize(result.after)
        line = before_after_line(before, after)
        scene.slmesh.export_result = json.dumps(
            {
                "files": result.files,
                "before": {"landImpact": before.land_impact, "rounded": before.land_impact_rounded},
                "after": {"landImpact": after.land_impact, "rounded": after.land_impact_rounded},
                "line": line,
                "warnings": result.warnings,
                "notes": result.notes,
            }
        )
        # The panel shows the written files' pricing: what the upload will cost.
        scene.slmesh_report = result.after_text
        for warning in result.warnings:
            self.report({"WARNING"}, warning)
        for note in result.notes:
            self.report({"INFO"}, note)
        self.report({"INFO"}, f"{line}; wrote {', '.join(os.path.basename(f) for f in result.files)}")


class SLMESH_OT_preview(_JobOperator, bpy.types.Operator):
    """Open slmesh's preview page of the selection in the browser: each LOD at the distance Second Life shows it"""

    bl_idname = "slmesh.preview"
    bl_label = "Preview in Browser"
    running_label = "Writing the preview"

    open_browser: BoolProperty(name="Open in browser", default=True, options={"SKIP_SAVE"})  # type: ignore[valid-type]

    def make_job(self, context, base):
        objects = source_objects(context)
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", context.scene.name) or "scene"
        # Blender's session temp folder: removed when Blender quits (the open page stays loaded).
        folder = os.path.join(bpy.app.tempdir or tempfile.gettempdir(), "slmesh-preview", safe)
        job = pipeline.preview_job(base, lambda p: gltf_export(context, objects, p), folder, context.scene.slmesh.lod_factor)
        return job, pipeline.PREVIEW_STEPS

    def on_success(self, context, page: str) -> None:
        scene = self._scene or context.scene
        scene.slmesh.preview_path = page
        if self.open_browser and os.environ.get(NO_BROWSER_ENV, "") in ("", "0"):
            webbrowser.open(f"file://{page}" if os.name != "nt" else page)
        self.report({"INFO"}, f"Preview: {page}")


class SLMESH_OT_cancel(bpy.types.Operator):
    """Stop the running slmesh job"""

    bl_idname = "slmesh.cancel"
    bl_label = "Cancel"

    def execute(self, context):
        _running["cancel"] = True
        return {"FINISHED"}


class SLMESH_OT_clear_error(bpy.types.Operator):
    """Hide the last error"""

    bl_idname = "slmesh.clear_error"
    bl_label = "Dismiss"

    def execute(self, context):
        context.scene.slmesh.error = ""
        return {"FINISHED"}


# -- bringing the LODs back ---------------------------------------------------------------------
def _lod_collection(scene) -> "bpy.types.Collection":
    coll = bpy.data.collections.get(LOD_COLLECTION)
    if coll is None:
        coll = bpy.data.collections.new(LOD_COLLECTION)
    if coll.name not in scene.collection.children:
        scene.collection.children.link(coll)
    return coll


def _find_layer_collection(layer_collection, name: str):
    if layer_collection.collection.name == name:
        return layer_collection
    for child in layer_collection.children:
        found = _find_layer_collection(child, name)
        if found is not None:
            return found
    return None


def import_lods(context, files: list[str], output: str, originals: list[str]) -> list:
    """Import the generated LODs and physics of ``files`` into the collection "SL LODs".

    Objects are named to pair with the originals (``Chair_LOD2``, ``Chair_PHYS``), use the
    originals' materials (the importer's copies are removed), keep their world placement, and
    replace the LODs an earlier export brought back for the same objects. High LODs (the
    creator's own objects) are not imported. Returns the imported objects.
    """
    scene = context.scene
    coll = _lod_collection(scene)
    bases = {strip_duplicate_suffix(n) for n in originals}
    for obj in list(coll.objects):
        if split_slot(obj.name)[0] in bases:
            bpy.data.objects.remove(obj, do_unlink=True)
    view_layer = context.view_layer
    selected = [o for o in view_layer.objects if o.select_get()]
    active = view_layer.objects.active
    previous_layer = view_layer.active_layer_collection
    layer = _find_layer_collection(view_layer.layer_collection, coll.name)
    if layer is not None:
        view_layer.active_layer_collection = layer
    materials_before = set(bpy.data.materials)
    kept: list = []
    try:
        for path in files:
            file_slot = slot_of_file(path, output)
            names_before = set(bpy.data.objects)
            with _numpy_bool_alias():
                bpy.ops.import_scene.gltf(filepath=path)
            new = [o for o in bpy.data.objects if o not in names_before]
            for obj in new:
                if obj.type != "MESH":
                    continue
                name = imported_name(obj.name, file_slot)
                if name is None:
                    continue
                world = obj.matrix_world.copy()
                obj.parent = None
                obj.matrix_world = world
                obj.name = name
                obj.data.name = name
                if name.endswith("_PHYS"):
                    obj.display_type = "WIRE"
                for slot in obj.material_slots:
                    mat = slot.material
                    if mat is not None and mat not in materials_before:
                        original = bpy.data.materials.get(strip_duplicate_suffix(mat.name))
                        if original is not None and original in materials_before:
                            slot.material = original
                kept.append(obj)
            for obj in new:
                if obj not in kept:
                    data = obj.data
                    bpy.data.objects.remove(obj, do_unlink=True)
                    if isinstance(data, bpy.types.Mesh) and data.users == 0:
                        bpy.data.meshes.remove(data)
        for obj in kept:
            for c in list(obj.users_collection):
                if c != coll:
                    c.objects.unlink(obj)
            if obj.name not in coll.objects:
                coll.objects.link(obj)
        for mat in list(bpy.data.materials):
            if mat not in materials_before and mat.users == 0:
                bpy.data.materials.remove(mat)
    finally:
        view_layer.active_layer_collection = previous_layer
        for obj in view_layer.objects:
            obj.select_set(obj in selected)
        view_layer.objects.active = active
    return kept


CLASSES = (SLMESH_OT_check, SLMESH_OT_price, SLMESH_OT_export, SLMESH_OT_preview, SLMESH_OT_cancel, SLMESH_OT_clear_error)


def register() -> None:
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister() -> None:
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
