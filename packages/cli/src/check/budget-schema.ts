/**
 * docs/budget.schema.json as a module, so the CLI validates budgets with the very schema it
 * publishes (a test checks the two are equal: edit docs/budget.schema.json, then copy it here).
 */

export const BUDGET_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://slmesh.dev/schemas/budget.schema.json',
  title: 'slmesh budget (slmesh.budget.json)',
  description:
    'Cost budgets for `slmesh check`: rules matched by glob, each with limits on what Second Life will charge for the assets it matches. Globs are relative to the folder of the budget file given to the command (also for rules that come from an `extends`ed file). An asset is checked against every rule that matches it; an asset no rule matches fails the check unless `ignore` drops it. JSON has no comments: use `//` or `$comment` keys (a string or an array of strings) in any object.',
  type: 'object',
  properties: {
    $schema: {
      type: 'string',
    },
    $comment: {
      $ref: '#/$defs/comment',
    },
    '//': {
      $ref: '#/$defs/comment',
    },
    extends: {
      description:
        "Other budget file(s), relative to this one. Their `defaults` and `pricing` are merged under this file's (this file wins, key by key); their `rules` come before this file's.",
      $ref: '#/$defs/stringOrStrings',
    },
    defaults: {
      description:
        'Limits every rule inherits (unless it `extends` a named rule, which inherits them itself). A rule overrides any key, or unsets it with null.',
      $ref: '#/$defs/limits',
    },
    rules: {
      description: 'The rules. Required unless `extends` names a budget that has them.',
      type: 'array',
      items: {
        $ref: '#/$defs/rule',
      },
    },
    ignore: {
      description: 'Globs of files never checked (not even when named on the command line).',
      $ref: '#/$defs/stringOrStrings',
    },
    pricing: {
      $ref: '#/$defs/pricing',
    },
  },
  additionalProperties: false,
  anyOf: [
    {
      required: ['rules'],
    },
    {
      required: ['extends'],
    },
  ],
  $defs: {
    comment: {
      description: 'A comment: ignored by slmesh.',
      oneOf: [
        {
          type: 'string',
        },
        {
          type: 'array',
          items: {
            type: 'string',
          },
        },
      ],
    },
    nonEmptyString: {
      type: 'string',
      pattern: '\\S',
    },
    stringOrStrings: {
      oneOf: [
        {
          $ref: '#/$defs/nonEmptyString',
        },
        {
          type: 'array',
          items: {
            $ref: '#/$defs/nonEmptyString',
          },
          minItems: 1,
        },
      ],
    },
    weight: {
      description: 'A weight limit (inclusive), or null to unset an inherited one.',
      oneOf: [
        {
          type: 'number',
          minimum: 0,
        },
        {
          type: 'null',
        },
      ],
    },
    count: {
      oneOf: [
        {
          type: 'integer',
          minimum: 0,
        },
        {
          type: 'null',
        },
      ],
    },
    requirement: {
      description: 'true requires it; false or null requires nothing (null also unsets an inherited true).',
      type: ['boolean', 'null'],
    },
    limitProperties: {
      description: 'The limit keys, shared by `defaults` and rules.',
      type: 'object',
      properties: {
        $comment: {
          $ref: '#/$defs/comment',
        },
        '//': {
          $ref: '#/$defs/comment',
        },
        maxLandImpact: {
          description:
            "Largest land impact of the linkset (unrounded: Second Life's rounding is not public, so 5.3 is over a limit of 5).",
          $ref: '#/$defs/weight',
        },
        maxDownload: {
          description: 'Largest download (streaming) weight of the linkset.',
          $ref: '#/$defs/weight',
        },
        maxPhysics: {
          description: 'Largest physics weight of the linkset (an estimate for convex decompositions, and said so).',
          $ref: '#/$defs/weight',
        },
        maxServer: {
          description: 'Largest server weight of the linkset.',
          $ref: '#/$defs/weight',
        },
        maxTriangles: {
          description:
            "Largest triangle count of each LOD over the linkset (a missing LOD counts the next higher LOD's triangles, as the viewer shows them). A bare number limits the high LOD.",
          oneOf: [
            {
              type: 'integer',
              minimum: 0,
            },
            {
              type: 'null',
            },
            {
              type: 'object',
              properties: {
                $comment: {
                  $ref: '#/$defs/comment',
                },
                '//': {
                  $ref: '#/$defs/comment',
                },
                high: {
                  $ref: '#/$defs/count',
                },
                medium: {
                  $ref: '#/$defs/count',
                },
                low: {
                  $ref: '#/$defs/count',
                },
                lowest: {
                  $ref: '#/$defs/count',
                },
              },
              additionalProperties: false,
            },
          ],
        },
        requiredLods: {
          description:
            'LODs every object must bring (authored in the file, or sibling files); "physics" requires an authored physics shape (a _PHYS mesh or decomposition).',
          oneOf: [
            {
              type: 'array',
              items: {
                enum: ['medium', 'low', 'lowest', 'physics'],
              },
              uniqueItems: true,
            },
            {
              type: 'null',
            },
          ],
        },
        maxHullVertices: {
          description: "Most vertices in any object's single convex hull (Second Life's limit is 256).",
          oneOf: [
            {
              type: 'integer',
              minimum: 1,
            },
            {
              type: 'null',
            },
          ],
        },
        maxPrims: {
          description: 'Most prims (objects) in the linkset.',
          oneOf: [
            {
              type: 'integer',
              minimum: 1,
            },
            {
              type: 'null',
            },
          ],
        },
        linkable: {
          description: 'true: the linkset must be linkable (span and prim count).',
          $ref: '#/$defs/requirement',
        },
        canBePhysical: {
          description: 'true: the linkset must be able to be set physical.',
          $ref: '#/$defs/requirement',
        },
        uploadable: {
          description:
            'true: no diagnostic of severity error (the uploader would refuse the model; docs/diagnostics.md).',
          $ref: '#/$defs/requirement',
        },
        atSizes: {
          description:
            'Sizes at which the size-dependent limits (land impact, download, physics, server, linkable, canBePhysical) are checked: the linkset\'s longest side in metres, or "asset" for its own size. Default ["asset"]. Triangles, LODs, hull vertices, prims and uploadable do not depend on size and are checked once.',
          oneOf: [
            {
              type: 'array',
              minItems: 1,
              uniqueItems: true,
              items: {
                oneOf: [
                  {
                    type: 'number',
                    exclusiveMinimum: 0,
                  },
                  {
                    const: 'asset',
                  },
                ],
              },
            },
            {
              type: 'null',
            },
          ],
        },
      },
    },
    limits: {
      description: 'Limits (the keys of `defaults`).',
      allOf: [
        {
          $ref: '#/$defs/limitProperties',
        },
      ],
      unevaluatedProperties: false,
    },
    rule: {
      type: 'object',
      required: ['files'],
      allOf: [
        {
          $ref: '#/$defs/limitProperties',
        },
      ],
      properties: {
        files: {
          description:
            'Glob(s) of the assets this rule budgets: `**`, `*`, `?`, `{a,b}`, `[a-z]`, `[!a]`; `*` and `**` do not match names starting with a dot.',
          $ref: '#/$defs/stringOrStrings',
        },
        exclude: {
          description: 'Glob(s) of files the rule does not apply to.',
          $ref: '#/$defs/stringOrStrings',
        },
        name: {
          description: 'Name shown in reports (default: the `files` globs). Unique.',
          $ref: '#/$defs/nonEmptyString',
        },
        extends: {
          description: 'Name of another rule whose limits this one starts from (instead of `defaults`).',
          $ref: '#/$defs/nonEmptyString',
        },
      },
      unevaluatedProperties: false,
    },
    pricing: {
      description: 'How every asset is priced (the same for all rules).',
      type: 'object',
      properties: {
        $comment: {
          $ref: '#/$defs/comment',
        },
        '//': {
          $ref: '#/$defs/comment',
        },
        lodFactor: {
          description: "RenderVolumeLODFactor for the report's LOD switch distances. Default 2.",
          type: 'number',
          exclusiveMinimum: 0,
        },
        animesh: {
          description: 'Price as animated objects (triangle-based download weight). Default false.',
          type: 'boolean',
        },
        scripts: {
          description: 'Scripts in each linkset, for server weight. Default 0.',
          type: 'integer',
          minimum: 0,
        },
        linkRule: {
          description: 'Linkability rule. Default current.',
          enum: ['current', 'legacy'],
        },
        linkSpan: {
          description: 'Largest linkable span of prim centres, metres. Default 54.',
          type: 'number',
          exclusiveMinimum: 0,
        },
        siblings: {
          description: 'Read sibling _LOD2/_LOD1/_LOD0/_PHYS files. Default true.',
          type: 'boolean',
        },
      },
      additionalProperties: false,
    },
  },
} as const;
