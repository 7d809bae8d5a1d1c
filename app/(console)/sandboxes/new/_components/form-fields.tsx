"use client";

import { useId, type ReactNode } from "react";
import { get, useFormContext } from "react-hook-form";
import styles from "./create-sandbox-form.module.css";

// Labelled inputs of the create forms (sandbox, template, claim): each names its hint and its
// error to assistive technology (aria-describedby) and marks itself invalid, so a screen reader
// hears what to fix. They work inside any react-hook-form FormProvider: `name` is a field path of
// that form's values.

type Name = string;

function useFieldError(name: Name): string | undefined {
  const { formState } = useFormContext();
  const error = get(formState.errors, name) as { message?: string } | undefined;
  return error?.message;
}

/** The ids of the hint and the error a field has, for aria-describedby. */
function describedBy(id: string, hint: ReactNode | undefined, error: string | undefined): string | undefined {
  const present = [hint !== undefined && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  return present || undefined;
}

function Hint({ id, hint }: { id: string; hint: ReactNode | undefined }) {
  if (hint === undefined) return null;
  return (
    <p id={`${id}-hint`} className={styles.hint}>
      {hint}
    </p>
  );
}

interface TextFieldProps {
  name: Name;
  label: string;
  hint?: ReactNode;
  placeholder?: string;
  /** One argument per line and the like. */
  rows?: number;
  inputMode?: "numeric" | "text";
  monospace?: boolean;
  list?: string;
  /** A secret: typed without being shown, and never offered to the browser's autofill. */
  concealed?: boolean;
  /** Shown, not changed (a template's name while it is edited). */
  readOnly?: boolean;
}

export function TextField({ name, label, hint, placeholder, rows, inputMode, monospace, list, concealed, readOnly }: TextFieldProps) {
  const { register } = useFormContext();
  const error = useFieldError(name);
  const id = useId();
  const props = {
    id,
    placeholder,
    className: monospace ? `${styles.input} ${styles.mono}` : styles.input,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(id, hint, error),
    readOnly,
    ...register(name),
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {rows ? <textarea rows={rows} spellCheck={false} {...props} /> : <input type={concealed ? "password" : "text"} inputMode={inputMode} spellCheck={false} autoComplete={concealed ? "new-password" : "off"} list={list} {...props} />}
      <Hint id={id} hint={hint} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className={styles.error}>
      {message}
    </p>
  );
}

export function CheckboxField({ name, label, hint }: { name: Name; label: string; hint?: ReactNode }) {
  const { register } = useFormContext();
  const error = useFieldError(name);
  const id = useId();
  return (
    <div className={styles.checkField}>
      <input type="checkbox" id={id} aria-describedby={describedBy(id, hint, error)} {...register(name)} />
      <div>
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
        <Hint id={id} hint={hint} />
        <FieldError id={`${id}-error`} message={error} />
      </div>
    </div>
  );
}

export interface Choice {
  value: string;
  label: string;
  description?: ReactNode;
}

/** A set of radio buttons in a fieldset whose legend names the choice. */
export function RadioChoice({ name, legend, choices, hint }: { name: Name; legend: string; choices: Choice[]; hint?: ReactNode }) {
  const { register } = useFormContext();
  const error = useFieldError(name);
  const id = useId();
  return (
    <fieldset className={styles.choice} aria-describedby={describedBy(id, hint, error)}>
      <legend className={styles.label}>{legend}</legend>
      <Hint id={id} hint={hint} />
      <div className={styles.options}>
        {choices.map((choice) => (
          <label key={choice.value} className={styles.option}>
            <input type="radio" value={choice.value} {...register(name)} />
            <span>
              <span className={styles.optionLabel}>{choice.label}</span>
              {choice.description ? <span className={styles.optionDescription}>{choice.description}</span> : null}
            </span>
          </label>
        ))}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}

export function SelectField({ name, label, options, hint }: { name: Name; label: string; options: { value: string; label: string }[]; hint?: ReactNode }) {
  const { register } = useFormContext();
  const error = useFieldError(name);
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <select id={id} className={styles.input} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...register(name)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Hint id={id} hint={hint} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** Access modes as checkboxes; the field holds the ticked modes. */
export function AccessModesField({ name, legend }: { name: Name; legend: string }) {
  const { register } = useFormContext();
  const error = useFieldError(name);
  const id = useId();
  return (
    <fieldset className={styles.choice} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className={styles.label}>{legend}</legend>
      <div className={styles.inlineOptions}>
        {ACCESS_MODE_LABELS.map(([mode, text]) => (
          <label key={mode} className={styles.inlineOption}>
            <input type="checkbox" value={mode} {...register(name)} /> <abbr title={text}>{mode}</abbr>
          </label>
        ))}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}

const ACCESS_MODE_LABELS = [
  ["ReadWriteOnce", "read-write by the pods of one node"],
  ["ReadWriteOncePod", "read-write by one pod"],
  ["ReadOnlyMany", "read-only by many nodes"],
  ["ReadWriteMany", "read-write by many nodes"],
] as const;
