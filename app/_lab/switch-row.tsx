import type { ReactNode } from "react";
import type { Toggle } from "./switches";

interface SwitchRowProps {
  toggle: Toggle;
  help?: ReactNode;
  on: boolean;
  spentOn: number | undefined;
  disabled: boolean;
  onTurn: (on: boolean) => void;
  children?: ReactNode;
}

/** One switch of the lab: its checkbox, armed or spent (on which try), its help if any, and what goes under. */
export function SwitchRow({ toggle, help, on, spentOn, disabled, onTurn, children }: SwitchRowProps) {
  const { id, oneShot } = toggle;
  return (
    <li data-switch={id}>
      <label className="switch">
        <input
          type="checkbox"
          checked={on}
          disabled={disabled}
          aria-describedby={
            [oneShot && `${id}-state`, help && `${id}-help`].filter(Boolean).join(" ") || undefined
          }
          onChange={(event) => onTurn(event.target.checked)}
        />
        {toggle.label}
      </label>
      {oneShot && (
        <p id={`${id}-state`} className="switch-state" data-testid={`${id}-state`}>
          {on && <span className="badge armed">armed for the next try</span>}
          {!on && spentOn !== undefined && <span className="badge spent">spent on try {spentOn}</span>}
        </p>
      )}
      {help && (
        <p id={`${id}-help`} className="muted small">
          {help}
        </p>
      )}
      {children}
    </li>
  );
}
