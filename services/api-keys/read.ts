import { apiKeyResource, listApiKeys as listApiKeyRows } from "../../db/queries/api-keys";
import type { PageRequest, PageRow } from "../../lib/pagination";
import { ApiError } from "../../lib/problem";
import type { ServiceContext } from "../context";

export async function getApiKey(ctx: ServiceContext, id: string): Promise<string> {
  const text = await apiKeyResource.textById(ctx.db, ctx.principal.galleryId, id, {});
  if (text === null) throw new ApiError("not_found", `No API key ${id} in this gallery.`);
  return text;
}

export function listApiKeys(ctx: ServiceContext, page: PageRequest): Promise<PageRow[]> {
  return listApiKeyRows(ctx.db, ctx.principal.galleryId, page);
}
