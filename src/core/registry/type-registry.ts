/**
 * The registry every extensible kind uses (field, filter, view, page, application, trash and
 * row metadata types): one implementation per `type` name, registered by its module at start.
 * A later registration of the same name replaces the earlier one.
 */
export class TypeRegistry<T extends { readonly type: string }> {
  protected readonly types = new Map<string, T>();

  /** What the registered things are, for the error of a stored name nobody registered. */
  protected readonly kind: string = 'Type';

  register(type: T): void {
    this.types.set(type.type, type);
  }

  /** The type of that name; anything but a registered name (even a non-string) answers undefined. */
  get(type: unknown): T | undefined {
    return typeof type === 'string' ? this.types.get(type) : undefined;
  }

  /** The type of a stored name; one that is not registered is a programming error. */
  require(type: string): T {
    const found = this.types.get(type);
    if (!found) throw new Error(`${this.kind} ${type} is not registered.`);
    return found;
  }

  names(): string[] {
    return [...this.types.keys()];
  }

  all(): T[] {
    return [...this.types.values()];
  }
}
