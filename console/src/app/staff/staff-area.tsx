import { Route, Switch } from 'wouter';
import { AuthGate } from '../../features/auth/components/auth-gate.tsx';
import { FacilityScopeProvider } from '../../lib/facility-scope.tsx';
import { staffRoutes } from './staff-routes.tsx';
import { StaffShell } from './staff-shell.tsx';

export default function StaffArea() {
  return (
    <AuthGate>
      <FacilityScopeProvider>
        <StaffShell>
          <Switch>
            {staffRoutes.map(({ path, screen }) => (
              <Route key={path} path={path}>
                {screen}
              </Route>
            ))}
          </Switch>
        </StaffShell>
      </FacilityScopeProvider>
    </AuthGate>
  );
}
