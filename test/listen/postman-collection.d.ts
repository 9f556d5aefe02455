/**
 * The part of postman-collection (Postman's own collection library) that test/listen/collection.test.ts uses. The
 * package names no types in its package.json, and the definitions it carries lack `forEachItem` and type `toJSON`
 * as void, so the used surface is declared here.
 */
declare module "postman-collection" {
  export class Url {
    /** The path; `unresolved` keeps path variables as `:name`. */
    getPath(unresolved?: boolean): string;
  }
  export interface Header {
    key: string;
    value: string;
    disabled?: boolean;
  }
  export class Request {
    method: string;
    url: Url;
    headers: { all(): Header[] };
    body?: { raw?: string };
  }
  export class ItemGroup {
    name: string;
  }
  export class Item {
    name: string;
    request: Request;
    parent(): ItemGroup | undefined;
  }
  export class Collection extends ItemGroup {
    constructor(definition: unknown);
    forEachItem(callback: (item: Item) => void): void;
    variables: { all(): { key: string; value: unknown }[] };
    auth?: { toJSON(): unknown };
  }
}
