import { type EntityTypeDef } from '@pitwall/contracts';

/** `trackConfigurationId` → `TrackConfiguration`. */
const parentName = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1, -2);

/** Source of `generated.ts`: one method per standard operation per registry type, named as the wrappers name them. */
export function generateClientSource(types: readonly EntityTypeDef[]): string {
  const lines = [
    '// Generated from the entity registry by `npm run gen:client` (libs/client/src/codegen.ts). Do not edit.',
    "import type { CreateModel, EntityJson, SearchBody, UpdateModel } from '@pitwall/contracts';",
    "import { ClientBase, type ClientResult, type Include } from './client-base';",
    '',
    '/** Typed client for the Pitwall API; every call returns `{ success, message, statusCode, returnValue }`. */',
    'export class PitwallClient extends ClientBase {',
  ];
  for (const t of types) {
    const P = t.plural;
    const S = t.name;
    const params = t.parents.map((p) => `${p.key}: string`);
    const ids = `{ ${t.parents.map((p) => p.key).join(', ')} }`;
    const forName = t.parents.length ? `For${t.parents.map((p) => parentName(p.key)).join('')}` : '';
    lines.push(
      `  /** GET /${P}/{id} */`,
      `  get${S}ById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {`,
      `    return this.getOne('${P}', id, parametersToInclude);`,
      '  }',
      `  /** GET /${P}${t.parents.length ? `?${t.parents.map((p) => `${p.key}=`).join('&')}` : ''} */`,
      `  getAll${P}${forName}(${[...params, 'parametersToInclude?: Include'].join(', ')}): Promise<ClientResult<EntityJson[]>> {`,
      `    return this.getMany('${P}', ${t.parents.length ? ids : '{}'}, parametersToInclude);`,
      '  }',
      // Types with two parents list by either one as well (GET /Setups?eventId=...): one method per parent.
      ...(t.parents.length > 1
        ? t.parents.flatMap((p) => [
            `  /** GET /${P}?${p.key}= */`,
            `  getAll${P}For${parentName(p.key)}(${p.key}: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {`,
            `    return this.getMany('${P}', { ${p.key} }, parametersToInclude);`,
            '  }',
          ])
        : []),
      `  /** POST /${P}: the created ${S}, all properties populated */`,
      `  add${S}(${[...params, 'model: CreateModel = {}'].join(', ')}): Promise<ClientResult<EntityJson>> {`,
      `    return this.add('${P}', ${t.parents.length ? ids : '{}'}, model);`,
      '  }',
      `  /** PUT /${P}/{id} */`,
      `  update${S}(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {`,
      `    return this.update('${P}', id, model);`,
      '  }',
      `  /** DELETE /${P}/{id} */`,
      `  delete${S}(id: string): Promise<ClientResult<null>> {`,
      `    return this.remove('${P}', id);`,
      '  }',
    );
    if (t.features.search) {
      lines.push(
        `  /** POST /${P}/Search (modes 0-4) */`,
        `  searchFor${P}(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {`,
        `    return this.search('${P}', body, parametersToInclude);`,
        '  }',
      );
    }
  }
  lines.push('}', '');
  return lines.join('\n');
}
