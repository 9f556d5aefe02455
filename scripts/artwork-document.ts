/**
 * Prints the statement that defines `artwork_document(text)`, the builder of an artwork's stored document
 * (db/schema `artwork_documents`, migration 0023), rendered from the resource description: its body is
 * `artworkResource.json(documentView)`, the SQL a read of that view runs, so the field list stays described once
 * (lib/schemas/artworks.ts `Artwork`, db/queries/artworks.ts). When the description changes, the documents suite
 * (test/artworks/documents.test.ts) fails until a new migration holds this statement again, followed by
 * `SELECT refresh_artwork_document(id) FROM artworks;` to rebuild the stored documents.
 *
 * Run: `tsx scripts/artwork-document.ts`.
 */
import { artworkDocumentSource } from "../db/queries/artworks";

console.log(
  `CREATE OR REPLACE FUNCTION artwork_document(text) RETURNS json\n  LANGUAGE plpgsql STABLE\n  AS $$${artworkDocumentSource()}$$;`,
);
