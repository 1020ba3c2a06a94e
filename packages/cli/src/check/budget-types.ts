/**
 * The budget file's types and constants (docs/budget.schema.json): what a rule limits, how
 * assets are priced, and the resolved budget `slmesh check` judges with.
 */

import { LOD_FACTOR_DEFAULT } from '@slmesh/core';

export const LOD_SLOTS = ['high', 'medium', 'low', 'lowest'] as const;
export type LodSlotName = (typeof LOD_SLOTS)[number];
export const REQUIRABLE = ['medium', 'low', 'lowest', 'physics'] as const;
export type Requirable = (typeof REQUIRABLE)[number];

/** A size at which limits are checked: the longest side in metres, or the asset's own size. */
export type SizeSpec = number | 'asset';

/** The limits a rule (or `defaults`) sets. Every key is optional; `null` unsets an inherited one. */
export interface Limits {
  maxLandImpact?: number | null;
  maxDownload?: number | null;
  maxPhysics?: number | null;
  maxServer?: number | null;
  maxTriangles?: Partial<Record<LodSlotName, number | null>> | null;
  requiredLods?: Requirable[] | null;
  maxHullVertices?: number | null;
  maxPrims?: number | null;
  linkable?: boolean | null;
  canBePhysical?: boolean | null;
  uploadable?: boolean | null;
  atSizes?: SizeSpec[] | null;
}

/** Limits after inheritance: no nulls, and `atSizes` always set. */
export interface ResolvedLimits {
  maxLandImpact?: number;
  maxDownload?: number;
  maxPhysics?: number;
  maxServer?: number;
  maxTriangles?: Partial<Record<LodSlotName, number>>;
  requiredLods?: Requirable[];
  maxHullVertices?: number;
  maxPrims?: number;
  linkable?: boolean;
  canBePhysical?: boolean;
  uploadable?: boolean;
  atSizes: SizeSpec[];
}

/** How assets are priced for the whole check (the same for every rule). */
export interface Pricing {
  /** RenderVolumeLODFactor for switch distances in the report. Default 2. */
  lodFactor: number;
  /** Price as animated objects. Default false. */
  animesh: boolean;
  /** Scripts per linkset, for server weight. Default 0. */
  scripts: number;
  /** Linkability rule. Default current. */
  linkRule: 'current' | 'legacy';
  /** Largest linkable span, metres. Default: core's (54). */
  linkSpan?: number;
  /** Read sibling `_LOD2`/`_LOD1`/`_LOD0`/`_PHYS` files. Default true. */
  siblings: boolean;
}

export const PRICING_DEFAULTS: Pricing = {
  lodFactor: LOD_FACTOR_DEFAULT,
  animesh: false,
  scripts: 0,
  linkRule: 'current',
  siblings: true,
};

export interface BudgetRule {
  /** `name`, or the rule's `files` when it has none. */
  name: string;
  /** Position in the resolved list (base files' rules first). */
  index: number;
  /** Where the rule is written: `base.budget.json: rules[0]`. */
  origin: string;
  files: string[];
  exclude: string[];
  limits: ResolvedLimits;
  /** Whether the rule applies to a path relative to the budget's folder. */
  matches(path: string): boolean;
}

export interface Budget {
  /** The budget file as the user named it. */
  file: string;
  /** Absolute folder the globs are relative to. */
  dir: string;
  rules: BudgetRule[];
  ignore: string[];
  pricing: Pricing;
  /** Whether `ignore` drops a path relative to the budget's folder. */
  isIgnored(path: string): boolean;
  /**
   * The path rules, `ignore` and shards see for an absolute path: relative to the budget's
   * folder, `/`-separated; for a file outside that folder, the path as printed (relative to
   * the working directory, or absolute), so a rule like `**\/*.glb` still applies to it.
   */
  relativePath(abs: string): string;
}

export const NUMBER_LIMITS = ['maxLandImpact', 'maxDownload', 'maxPhysics', 'maxServer'] as const;
export const BOOLEAN_LIMITS = ['linkable', 'canBePhysical', 'uploadable'] as const;
export const LIMIT_KEYS: string[] = [
  ...NUMBER_LIMITS,
  'maxTriangles',
  'requiredLods',
  'maxHullVertices',
  'maxPrims',
  ...BOOLEAN_LIMITS,
  'atSizes',
];
export const RULE_KEYS = ['files', 'exclude', 'name', 'extends', ...LIMIT_KEYS];
export const TOP_KEYS = ['$schema', 'extends', 'defaults', 'rules', 'ignore', 'pricing'];
export const PRICING_KEYS = ['lodFactor', 'animesh', 'scripts', 'linkRule', 'linkSpan', 'siblings'];

/** A rule as written, with where it was written. */
export interface RuleSpec extends Limits {
  files: string[];
  exclude: string[];
  name?: string;
  extends?: string;
  origin: string;
  /** The file the rule is written in, for error messages. */
  file: string;
  path: string;
}

/** One budget file, validated (its `extends` not yet followed). */
export interface BudgetSpec {
  extends: string[];
  defaults: Limits;
  rules: RuleSpec[];
  ignore: string[];
  pricing: Partial<Pricing>;
}

/** Bounds on what a budget may ask for (each an INPUT_LIMIT error naming the file and the limit). */
export const BUDGET_LIMITS = {
  /** Largest budget file, bytes. */
  fileBytes: 4 * 1024 * 1024,
  /** Most budget files in one `extends` graph (each is read once). */
  files: 64,
  /** Most rules after `extends`. */
  rules: 2000,
  /** Most glob alternatives (after `{a,b}` expansion) over every rule, exclude and ignore. */
  alternatives: 20_000,
};
