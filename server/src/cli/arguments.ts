// Checks of single argument values. Each throws a UsageError whose message says what was expected.
import { numberProblem } from '../placement/number-problem.js';
import { UsageError } from './cli-error.js';
import type { OptionValues } from './command.js';

export function required(values: OptionValues, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v.trim();
}

export function optional(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v.trim() : undefined;
}

export function integer(label: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`${label} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

export function e164(label: string, raw: string): string {
  const problem = numberProblem(raw, label);
  if (problem) throw new UsageError(problem.replace(/\.$/, ''));
  return raw;
}
