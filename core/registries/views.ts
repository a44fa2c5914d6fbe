/** Typed, tolerant views of the registries that several gates read. Absent registry: undefined. */
import { type Corpus, isObject } from '../model/index.js';

export const DECLARATION_PATH = 'spec/v2/declaration.json';

export interface FamilyEntry {
  key: string;
  anchor?: string;
  section?: string;
  witness?: string;
  index: number;
}

/** The families of spec/v2/declaration.json, or undefined while that registry does not exist or parse. */
export function declarationFamilies(corpus: Corpus): FamilyEntry[] | undefined {
  const declaration = corpus.data(DECLARATION_PATH)?.value;
  if (!isObject(declaration) || !Array.isArray(declaration.families)) return undefined;
  return declaration.families.flatMap((family, index) =>
    isObject(family) && typeof family.key === 'string'
      ? [
          {
            key: family.key,
            anchor: str(family.anchor),
            section: str(family.section),
            witness: str(family.witness),
            index,
          },
        ]
      : [],
  );
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export interface VendorOrgs {
  /** Orgs registered under `extensions` (the vendor-org registry), reserved ones excluded. */
  registered: string[];
  reserved: string[];
  /** The pattern a vendor key must have, when the declaration states one. */
  keyPattern: string | undefined;
}

/** The vendor-org registry of spec/v2/declaration.json, or undefined while it does not exist. */
export function vendorOrgs(corpus: Corpus): VendorOrgs | undefined {
  const declaration = corpus.data(DECLARATION_PATH)?.value;
  if (!isObject(declaration)) return undefined;
  const reserved = Array.isArray(declaration.reservedOrgs)
    ? declaration.reservedOrgs.filter((org): org is string => typeof org === 'string')
    : [];
  const registered = isObject(declaration.extensions)
    ? Object.keys(declaration.extensions)
        .filter((org) => !reserved.includes(org))
        .sort()
    : [];
  return { registered, reserved, keyPattern: str(declaration.extensionsKeyPattern) };
}
